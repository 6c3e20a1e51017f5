package dev.ratchet.verticles.bench;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.verticles.Ratchet;
import dev.ratchet.verticles.RatchetOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Recovery time and heap per session. A first runtime leaves {@code sessions} turns in flight and
 * stops without finishing them, as a killed process would; a second runtime on the same journal
 * resumes them. Measured: the time until every turn completed, the heap each active session
 * holds, and what is left once the sessions are passivated.
 */
final class RecoveryProbe {

  /** The figures, heap in bytes per session. */
  record Figures(int sessions, long resumeMillis, long heapPerActiveSession, long heapPerPassivatedSession) {
  }

  private RecoveryProbe() {
  }

  static Figures measure(String redisUrl, int sessions) throws InterruptedException {
    String prefix = "bench-rec-" + UUID.randomUUID().toString().substring(0, 6);
    Vertx first = Vertx.vertx();
    Ratchet crashed = Ratchet.deploy(first, RatchetOptions.create().redisUrl(redisUrl).keyPrefix(prefix)
        .maxPoolSize(32)).await();
    crashed.register(agent(false)).await();
    List<Future<?>> accepted = new ArrayList<>();
    Turn turn = Turn.of("t1", new ToolCall("slow_read", null));
    for (int s = 0; s < sessions; s++) {
      accepted.add(((dev.ratchet.verticles.impl.RatchetImpl) crashed).accept(Workload.AGENT, "r-" + s, turn));
      if (accepted.size() % 1000 == 0) {
        Future.join(accepted.subList(accepted.size() - 1000, accepted.size())).await();
      }
    }
    Future.join(accepted).await();
    first.close().await();

    System.gc();
    long baseline = usedHeap();
    Vertx vertx = Vertx.vertx();
    CountDownLatch resumed = new CountDownLatch(sessions);
    AtomicInteger seen = new AtomicInteger();
    vertx.eventBus().addOutboundInterceptor(ctx -> {
      Object body = ctx.message().body();
      if (body instanceof JsonObject && "turn.completed".equals(((JsonObject) body).getString("type"))) {
        seen.incrementAndGet();
        resumed.countDown();
      }
      ctx.next();
    });
    Ratchet ratchet = Ratchet.deploy(vertx, RatchetOptions.create().redisUrl(redisUrl).keyPrefix(prefix)
        .maxPoolSize(32).sessionIdleMillis(3_000)).await();
    long t0 = System.nanoTime();
    ratchet.register(agent(true)).await();
    boolean all = resumed.await(120, TimeUnit.SECONDS);
    long resumeMillis = (System.nanoTime() - t0) / 1_000_000;
    if (!all) {
      System.out.println("recovery: only " + seen.get() + " of " + sessions + " turns resumed within 120 s");
    }
    System.gc();
    long active = usedHeap();
    int activeSessions = Math.max(1, ratchet.activeSessions());
    long deadline = System.currentTimeMillis() + 60_000;
    while (ratchet.activeSessions() > 0 && System.currentTimeMillis() < deadline) {
      Thread.sleep(200);
    }
    System.gc();
    long passivated = usedHeap();
    ratchet.close().await();
    vertx.close().await();
    return new Figures(sessions, resumeMillis, Math.max(0, (active - baseline) / activeSessions),
        Math.max(0, (passivated - baseline) / sessions));
  }

  private static long usedHeap() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** In the first runtime the read never answers; in the second it answers at once. */
  private static AgentDefinition agent(boolean answers) {
    FunctionToolSource tools = FunctionToolSource.create("recovery").tool(
        FunctionToolSource.define("slow_read", EffectClass.READ).timeout(java.time.Duration.ofMinutes(5))
            .handler(inv -> answers ? Future.succeededFuture(Workload.RESULT) : Promise.<Object>promise().future()));
    return AgentDefinition.builder(Workload.AGENT).toolSource(tools).build();
  }
}
