package dev.ratchet.server.bench;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.verticles.RatchetNode;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/** The benchmark's agent (in-process no-op tools with a ~100-byte result) and its turn mixes. */
final class Workload {

  static final String AGENT = "bench";
  static final JsonObject RESULT = new JsonObject().put("status", "ok").put("payload", "x".repeat(80));

  /** Turn shapes: 3 reads + 2 writes, 5 reads, 5 writes. */
  enum Mix {
    MIX("read_a", "read_b", "read_c", "write_safe", "write_once"),
    READS("read_a", "read_b", "read_c", "read_a", "read_b"),
    WRITES("write_safe", "write_once", "write_safe", "write_once", "write_safe");

    final List<ToolCall> calls = new ArrayList<>();

    Mix(String... tools) {
      for (String t : tools) {
        calls.add(new ToolCall(t, null));
      }
    }

    String label() {
      return name().toLowerCase();
    }
  }

  /** What one measured phase produced. */
  record Result(long turns, long calls, long millis, Latencies latencies, long toolNanos) {
    double callsPerSecond() {
      return calls * 1000.0 / Math.max(1, millis);
    }
  }

  private static final AtomicLong TOOL_NANOS = new AtomicLong();

  private Workload() {
  }

  static AgentDefinition agent() {
    FunctionToolSource tools = FunctionToolSource.create("bench");
    for (String r : List.of("read_a", "read_b", "read_c")) {
      tools.tool(FunctionToolSource.define(r, EffectClass.READ).handler(inv -> timed()));
    }
    tools.tool(FunctionToolSource.define("write_safe", EffectClass.IDEMPOTENT_WRITE).handler(inv -> timed()));
    tools.tool(FunctionToolSource.define("write_once", EffectClass.NON_IDEMPOTENT_WRITE).handler(inv -> timed()));
    return AgentDefinition.builder(AGENT).toolSource(tools).build();
  }

  private static Future<Object> timed() {
    long t0 = System.nanoTime();
    Future<Object> f = Future.succeededFuture(RESULT);
    TOOL_NANOS.addAndGet(System.nanoTime() - t0);
    return f;
  }

  /**
   * {@code sessions} sessions, each submitting turns back to back; a later {@link #run} continues the
   * same sessions, as a service's sessions go on from one minute to the next.
   */
  static final class Sessions {
    private final String[] ids;
    private final int[] nextTurn;

    Sessions(int sessions) {
      String run = UUID.randomUUID().toString().substring(0, 6);
      ids = new String[sessions];
      nextTurn = new int[sessions];
      for (int s = 0; s < sessions; s++) {
        ids[s] = "b-" + run + "-" + s;
      }
    }

    /** Every session submits turns back to back for {@code millis}. */
    Result run(RatchetNode ratchet, Mix mix, long millis) {
      long end = System.currentTimeMillis() + millis;
      AtomicLong turns = new AtomicLong();
      Latencies latencies = new Latencies();
      List<Future<Void>> loops = new ArrayList<>(ids.length);
      long tools0 = TOOL_NANOS.get();
      long start = System.currentTimeMillis();
      for (int s = 0; s < ids.length; s++) {
        Promise<Void> done = Promise.promise();
        loop(ratchet, mix, s, end, turns, latencies, done);
        loops.add(done.future());
      }
      Future.join(loops).await();
      long elapsed = System.currentTimeMillis() - start;
      return new Result(turns.get(), turns.get() * mix.calls.size(), elapsed, latencies, TOOL_NANOS.get() - tools0);
    }

    private void loop(RatchetNode ratchet, Mix mix, int s, long end, AtomicLong turns, Latencies latencies,
                      Promise<Void> done) {
      if (System.currentTimeMillis() >= end) {
        done.complete();
        return;
      }
      long t0 = System.nanoTime();
      ratchet.submit(AGENT, ids[s], new Turn("t" + nextTurn[s]++, mix.calls)).onComplete(ar -> {
        if (ar.failed()) {
          done.fail(ar.cause());
          return;
        }
        latencies.add((System.nanoTime() - t0) / 1000);
        turns.incrementAndGet();
        loop(ratchet, mix, s, end, turns, latencies, done);
      });
    }
  }
}
