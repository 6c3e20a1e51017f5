package dev.ratchet.server.bench;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnRequest;
import dev.ratchet.server.impl.TransportChoice;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import dev.ratchet.verticles.StepEvents;
import dev.ratchet.verticles.impl.RatchetNodeImpl;
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
 * Recovery time and heap per session, in two probes.
 *
 * <p>Recovery: a first runtime leaves {@code sessions} turns in flight and stops without finishing
 * them, as a killed process would; a second runtime on the same journal resumes them. Measured from
 * the start of {@code register} on the new runtime (which starts recovery) until every in-flight
 * turn completed.
 *
 * <p>Heap: {@code sessions} sessions each run one turn and stay deployed (active); the heap they
 * hold is measured, then again once every one of them was passivated and the session manager
 * tracks none of them any more.
 */
final class RecoveryProbe {

  /** Resume time of sessions with a turn in flight. */
  record Recovery(int sessions, int resumed, long resumeMillis, long jvmCpuMillis, long redisCpuMillis) {
  }

  /** Heap in bytes per session, active and passivated. */
  record Heap(int sessions, int activeAtMeasure, long heapPerActiveSession, long heapPerPassivatedSession,
              long passivateMillis) {
  }

  private static final int BATCH = 1000;

  private RecoveryProbe() {
  }

  static Recovery recovery(TransportChoice transport, String redisUrl, int sessions) throws InterruptedException {
    String prefix = "bench-rec-" + UUID.randomUUID().toString().substring(0, 6);
    Vertx first = transport.vertx();
    RatchetNode crashed = RatchetNode.deploy(first, RatchetOptions.create().redisUrl(redisUrl).keyPrefix(prefix)
        .maxPoolSize(32)).await();
    crashed.register(agent(false)).await();
    submitOneTurnEach(crashed, sessions, Turn.of("t1", new ToolCall("slow_read", null)), "r-", false);
    first.close().await();

    System.gc();
    Vertx vertx = transport.vertx();
    CountDownLatch resumed = new CountDownLatch(sessions);
    AtomicInteger seen = new AtomicInteger();
    StepEvents.publishAll(vertx);
    vertx.eventBus().addOutboundInterceptor(ctx -> {
      Object body = ctx.body(); // as sent: message().body() would copy every event
      if (body instanceof JsonObject && EventType.TURN_COMPLETED.wireName().equals(((JsonObject) body).getString("type"))) {
        seen.incrementAndGet();
        resumed.countDown();
      }
      ctx.next();
    });
    RatchetNode ratchet = RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl(redisUrl).keyPrefix(prefix)
        .maxPoolSize(32)).await();
    TaskCpu redis0 = TaskCpu.ofRedis(ratchet.diagnostics().info("cpu").await());
    long cpu0 = JvmCounters.processCpuNanos();
    long t0 = System.nanoTime();
    ratchet.register(agent(true)).await();
    boolean all = resumed.await(120, TimeUnit.SECONDS);
    long resumeMillis = (System.nanoTime() - t0) / 1_000_000;
    long jvmCpuMillis = (JvmCounters.processCpuNanos() - cpu0) / 1_000_000;
    long redisCpuMillis = TaskCpu.ofRedis(ratchet.diagnostics().info("cpu").await()).since(redis0).totalMillis();
    if (!all) {
      System.out.println("recovery: only " + seen.get() + " of " + sessions + " turns resumed within 120 s");
    }
    ratchet.close().await();
    vertx.close().await();
    return new Recovery(sessions, seen.get(), resumeMillis, jvmCpuMillis, redisCpuMillis);
  }

  static Heap heap(TransportChoice transport, String redisUrl, int sessions) throws InterruptedException {
    String prefix = "bench-heap-" + UUID.randomUUID().toString().substring(0, 6);
    Vertx vertx = transport.vertx();
    // idle long enough that the first session is still deployed when the last one has run its turn
    long idleMillis = Math.max(10_000, sessions * 3L / 2);
    RatchetNodeImpl ratchet = (RatchetNodeImpl) RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl(redisUrl)
        .keyPrefix(prefix).maxPoolSize(32).sessionIdleMillis(idleMillis)).await();
    ratchet.register(agent(true)).await();
    // a session that came and went first, so that what every runtime holds once is in the baseline
    submitOneTurnEach(ratchet, 1, Turn.of("warm", new ToolCall("slow_read", null)), "h-warm-", true);
    long baseline = usedHeap();
    long t0 = System.currentTimeMillis();
    submitOneTurnEach(ratchet, sessions, Turn.of("t1", new ToolCall("slow_read", null)), "h-", true);
    long active = usedHeap();
    int activeAtMeasure = ratchet.activeSessions();
    if (activeAtMeasure < sessions) {
      System.out.println("heap: only " + activeAtMeasure + " of " + sessions + " sessions were still active when"
          + " measured (deploying took " + (System.currentTimeMillis() - t0) + " ms)");
    }
    long p0 = System.currentTimeMillis();
    long deadline = p0 + idleMillis + 120_000;
    while ((ratchet.activeSessions() > 0 || ratchet.trackedSessions() > 0) && System.currentTimeMillis() < deadline) {
      Thread.sleep(100);
    }
    long passivateMillis = System.currentTimeMillis() - p0;
    if (ratchet.trackedSessions() > 0) {
      System.out.println("heap: " + ratchet.trackedSessions() + " sessions still tracked by the session manager");
    }
    long passivated = usedHeap();
    ratchet.close().await();
    vertx.close().await();
    return new Heap(sessions, activeAtMeasure, Math.max(0, (active - baseline) / Math.max(1, activeAtMeasure)),
        Math.max(0, (passivated - baseline) / sessions), passivateMillis);
  }

  /**
   * Submits the turn in sessions {@code prefix0..}; waits until each is journaled, and with
   * {@code completed} until each has its results.
   */
  private static void submitOneTurnEach(RatchetNode ratchet, int sessions, Turn turn, String prefix,
                                        boolean completed) {
    List<Future<?>> accepted = new ArrayList<>();
    for (int s = 0; s < sessions; s++) {
      accepted.add(ratchet.accept(TurnRequest.of(Workload.AGENT, prefix + s, turn)).compose(done ->
          completed ? done.result() : Future.succeededFuture()));
      if (accepted.size() % BATCH == 0) {
        Future.join(accepted.subList(accepted.size() - BATCH, accepted.size())).await();
      }
    }
    Future.join(accepted).await();
  }

  /** CPU time this process used so far (all threads), or 0 where the JVM does not tell. */
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
