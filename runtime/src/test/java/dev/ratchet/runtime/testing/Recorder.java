package dev.ratchet.runtime.testing;

import dev.ratchet.runtime.ToolInvocation;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** Records what tools were actually asked to do, the way a provider would see it. */
public final class Recorder {

  public final List<String> order = new CopyOnWriteArrayList<>();
  public final Map<String, AtomicInteger> byKey = new ConcurrentHashMap<>();
  public final List<ToolInvocation> invocations = new CopyOnWriteArrayList<>();
  public final AtomicInteger concurrent = new AtomicInteger();
  public final AtomicInteger maxConcurrent = new AtomicInteger();

  public void record(String tool, ToolInvocation inv) {
    order.add(tool);
    invocations.add(inv);
    byKey.computeIfAbsent(inv.idempotencyKey().value(), k -> new AtomicInteger()).incrementAndGet();
  }

  public int count(String tool) {
    return (int) order.stream().filter(tool::equals).count();
  }

  public void enter() {
    int now = concurrent.incrementAndGet();
    maxConcurrent.accumulateAndGet(now, Math::max);
  }

  public void leave() {
    concurrent.decrementAndGet();
  }
}
