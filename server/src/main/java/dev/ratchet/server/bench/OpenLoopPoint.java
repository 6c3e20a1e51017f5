package dev.ratchet.server.bench;

import dev.ratchet.server.impl.TransportChoice;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.file.Path;
import java.util.UUID;

/**
 * The open-loop phase of {@code bench}: turns offered at a fixed rate over {@code sessions}
 * sessions, after a warm-up at the same rate; latency, overhead per call, what AOF rewrites, GC and
 * the kernel's DAMON monitor took meanwhile, and CPU per call.
 *
 * @param rate the rate asked for with {@code --open-loop-rate}, or 0 when the phase runs at half of
 *     the closed-loop peak
 * @param turnTimes where each turn's times are written, or null
 */
record OpenLoopPoint(TransportChoice transport, KernelDamon damon, int sessions, int warmupSeconds, int seconds,
                     double rate, Path turnTimes) {

  /** The latency at a fixed offered load of {@code callsPerSec}, after a warm-up at the same load. */
  JsonObject measure(String url, String fsync, Workload.Mix mix, double callsPerSec)
      throws InterruptedException, IOException {
    Vertx vertx = transport.vertx();
    try {
      RatchetNode ratchet = RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl(url).maxPoolSize(64)
          .keyPrefix("bench-" + UUID.randomUUID().toString().substring(0, 6))).await();
      ratchet.register(Workload.agent()).await();
      OpenLoop load = new OpenLoop();
      RewriteWatch watch = new RewriteWatch(vertx, ratchet);
      load.run(ratchet, mix, callsPerSec, sessions, warmupSeconds * 1000L);
      long rewrites0 = aofRewrites(ratchet);
      // a rewrite started before the phase may run through it: sampled, not counted
      watch.measureFromNow();
      TaskCpu redis0 = TaskCpu.ofRedis(ratchet.diagnostics().info("cpu").await());
      long jvmCpu0 = JvmCounters.processCpuNanos();
      TaskCpu jvmTask0 = TaskCpu.ofThisProcess();
      JvmCounters jvm0 = JvmCounters.now();
      long damon0 = damon.cpuMillis();
      long phaseStart = System.nanoTime();
      OpenLoop.Result r = load.run(ratchet, mix, callsPerSec, sessions, seconds * 1000L);
      JvmCounters jvm = JvmCounters.now().since(jvm0);
      long damonMillis = damon.cpuMillis() - damon0;
      long jvmCpu = JvmCounters.processCpuNanos() - jvmCpu0;
      double jvmKernelShare = TaskCpu.ofThisProcess().since(jvmTask0).kernelShare();
      TaskCpu redis = TaskCpu.ofRedis(ratchet.diagnostics().info("cpu").await()).since(redis0);
      double redisKernelShare = redis.kernelShare();
      long calls = Math.max(1, r.completedCalls());
      double jvmMicrosPerCall = jvmCpu / 1e3 / calls;
      double redisMicrosPerCall = redis.totalMillis() * 1e3 / calls;
      watch.stop();
      if (turnTimes != null) {
        Path file = turnTimes.resolveSibling(turnTimes.getFileName() + "-" + fsync + "-" + mix.label().replace(' ', '_'));
        r.times().write(file, phaseStart);
        System.out.println("turn times written to " + file);
      }
      long rewrites = aofRewrites(ratchet) - rewrites0;
      double rewritingShare = watch.share();
      Latencies outside = r.times().perCallOutside(watch, mix.calls.size());
      ratchet.close().await();
      JsonObject o = new JsonObject().put("fsync", fsync).put("mix", mix.label())
          .put("offeredCallsPerSec", Math.round(r.offeredCallsPerSec()))
          .put("achievedCallsPerSec", Math.round(r.achievedCallsPerSec())).put("sessions", sessions)
          .put("turnsLate", r.turnsLate()).put("turnsFailed", r.turnsFailed())
          .put("turnP50Ms", BenchPoint.round(r.latencies().percentileMillis(50)))
          .put("turnP99Ms", BenchPoint.round(r.latencies().percentileMillis(99)))
          .put("turnP999Ms", BenchPoint.round(r.latencies().percentileMillis(99.9)))
          .put("overheadPerCallP50Ms", BenchPoint.round(r.overheadPerCall().percentileMillis(50)))
          .put("overheadPerCallP99Ms", BenchPoint.round(r.overheadPerCall().percentileMillis(99)))
          .put("aofRewritesDuring", rewrites).put("aofRewritingShare", BenchPoint.round(rewritingShare))
          .put("turnsOutsideRewrites", outside.size())
          .put("overheadPerCallP99OutsideRewritesMs", BenchPoint.round(outside.percentileMillis(99)))
          .put("gcCollectionsDuring", jvm.collections()).put("gcMillisDuring", jvm.collectionMillis())
          .put("jvmCpuMicrosPerCall", BenchPoint.round(jvmMicrosPerCall)).put("redisCpuMicrosPerCall", BenchPoint.round(redisMicrosPerCall))
          .put("jvmKernelShare", BenchPoint.round(jvmKernelShare)).put("redisKernelShare", BenchPoint.round(redisKernelShare));
      if (!damon.monitors().isEmpty()) {
        o.put("kdamondCpuMsDuring", damonMillis);
      }
      System.out.printf("open loop, %s %s at " + (rate > 0 ? "the rate asked for" : "half of peak")
              + ": %,.0f calls/s offered, %,.0f achieved over %d sessions;"
              + " turn p50 %.2f ms, p99 %.2f ms, p999 %.2f ms; overhead per call p50 %.3f ms, p99 %.3f ms%s%n",
          fsync, mix.label(), r.offeredCallsPerSec(), r.achievedCallsPerSec(), sessions,
          r.latencies().percentileMillis(50), r.latencies().percentileMillis(99), r.latencies().percentileMillis(99.9),
          r.overheadPerCall().percentileMillis(50), r.overheadPerCall().percentileMillis(99),
          (r.turnsLate() > 0 ? "; " + r.turnsLate() + " turns unfinished" : "")
              + (r.turnsFailed() > 0 ? "; " + r.turnsFailed() + " turns failed, the first with " + r.firstFailure() : "")
              + (rewritingShare > 0 ? String.format("; Redis was rewriting its AOF during %.0f%% of the phase (%d"
                  + " rewrite(s) started); p99 per call of the %,d turns that overlapped no rewrite %.3f ms",
                  rewritingShare * 100, rewrites, outside.size(), outside.percentileMillis(99)) : "")
              + String.format("; CPU per call: JVM %.1f µs (the arrivals thread included%s), Redis %.1f µs%s",
                  jvmMicrosPerCall, inTheKernel(jvmKernelShare, "; ", " of it"), redisMicrosPerCall,
                  inTheKernel(redisKernelShare, " (", "") + (redisKernelShare < 0 ? "" : ")"))
              + String.format("; %d GC pauses, %d ms in all", jvm.collections(), jvm.collectionMillis())
              + (damon.monitors().isEmpty() ? "" : String.format("; the kernel's DAMON monitor took %,d ms of CPU",
                  damonMillis)));
      return o;
    } finally {
      vertx.close().await();
    }
  }

  /** AOF rewrites Redis has done: a rewrite forks and competes for the cores, which shows in the tail. */
  private static long aofRewrites(RatchetNode ratchet) {
    return Long.parseLong(ratchet.diagnostics().info("persistence").await().getOrDefault("aof_rewrites", "0"));
  }

  /** "{@code <lead>38 %<what> in the kernel}", or nothing where the share is unknown. */
  private static String inTheKernel(double share, String lead, String what) {
    return share < 0 ? "" : String.format("%s%.0f %%%s in the kernel", lead, share * 100, what);
  }
}
