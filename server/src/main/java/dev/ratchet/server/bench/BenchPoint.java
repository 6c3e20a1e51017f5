package dev.ratchet.server.bench;

import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.server.impl.TransportChoice;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import dev.ratchet.verticles.impl.RatchetNodeImpl;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Map;
import java.util.UUID;

/**
 * One closed-loop point of {@code bench}: {@code n} sessions sending turns of one mix as fast as
 * they are answered, beside the fenced-append ceiling of the same Redis measured before and after;
 * calls per second, turn latency, overhead, Redis commands, bytes and CPU per call. Prints its row
 * of the table.
 */
final class BenchPoint {

  private BenchPoint() {
  }

  static JsonObject measure(TransportChoice transport, String url, String fsync, Workload.Mix mix, int n, int seconds,
      int warmup) throws InterruptedException {
    Vertx vertx = transport.vertx();
    try {
      int pool = Math.max(8, Math.min(64, n));
      long ceilingMillis = Math.min(seconds, 5) * 1000L;
      // the ceiling moves a lot from one run to the next on a shared machine: it is measured before
      // and after Ratchet's phase, and the higher of the two is the one Ratchet is compared with
      AofQuiet.await(vertx, url);
      double ceilingBefore = FencedAppendCeiling.measure(vertx, url, n, ceilingMillis, pool);
      RatchetNode ratchet = RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl(url).maxPoolSize(pool)
          .keyPrefix("bench-" + UUID.randomUUID().toString().substring(0, 6))).await();
      ratchet.register(Workload.agent()).await();
      RedisJournal journal = ((RatchetNodeImpl) ratchet).redisJournal();
      Workload.Sessions sessions = new Workload.Sessions(n);
      RewriteWatch rewrites = new RewriteWatch(vertx, ratchet);
      sessions.run(ratchet, mix, warmup * 1000L);
      AofQuiet.await(vertx, url);
      Map<String, Long> before = journal.diagnostics().commandStats().await();
      Map<String, String> stats0 = journal.diagnostics().info("stats").await();
      TaskCpu redis0 = TaskCpu.ofRedis(journal.diagnostics().info("cpu").await());
      long jvmCpu0 = JvmCounters.processCpuNanos();
      TaskCpu jvmTask0 = TaskCpu.ofThisProcess();
      JvmCounters jvm0 = JvmCounters.now();
      long sent0 = journal.commandsSent();
      rewrites.measureFromNow();
      Workload.Result r = sessions.run(ratchet, mix, seconds * 1000L);
      rewrites.stop();
      long sent = journal.commandsSent() - sent0;
      JvmCounters jvm = JvmCounters.now().since(jvm0);
      long jvmCpu = JvmCounters.processCpuNanos() - jvmCpu0;
      TaskCpu jvmTask = TaskCpu.ofThisProcess().since(jvmTask0);
      TaskCpu redis = TaskCpu.ofRedis(journal.diagnostics().info("cpu").await()).since(redis0);
      Map<String, String> stats1 = journal.diagnostics().info("stats").await();
      Map<String, Long> after = journal.diagnostics().commandStats().await();
      long executed = 0;
      for (Map.Entry<String, Long> e : after.entrySet()) {
        if (!e.getKey().equals("info")) {
          executed += e.getValue() - before.getOrDefault(e.getKey(), 0L);
        }
      }
      long bytes = delta(stats0, stats1, "total_net_input_bytes") + delta(stats0, stats1, "total_net_output_bytes");
      ratchet.close().await();
      AofQuiet.await(vertx, url);
      double ceilingAfter = FencedAppendCeiling.measure(vertx, url, n, ceilingMillis, pool);
      double ceiling = Math.max(ceilingBefore, ceilingAfter);
      long calls = Math.max(1, r.calls());
      int perTurn = mix.calls.size();
      double overheadPerCall = Math.max(0, r.latencies().percentileMillis(50) - r.toolNanos() / 1e6 / Math.max(1,
          r.turns())) / perTurn;
      double ratio = r.callsPerSecond() / Math.max(1, ceiling);
      // the share of the measured phase in which GC had every event loop stopped
      double gcShare = jvm.collectionMillis() / (double) Math.max(1, r.millis());
      JsonObject p = new JsonObject().put("fsync", fsync).put("mix", mix.label()).put("sessions", n)
          .put("callsPerSec", Math.round(r.callsPerSecond())).put("ceilingAppendsPerSec", Math.round(ceiling))
          .put("ceilingRuns", new JsonArray().add(Math.round(ceilingBefore)).add(Math.round(ceilingAfter)))
          .put("ratioToCeiling", round(ratio)).put("turnP50Ms", round(r.latencies().percentileMillis(50)))
          .put("turnP99Ms", round(r.latencies().percentileMillis(99)))
          .put("turnP999Ms", round(r.latencies().percentileMillis(99.9)))
          .put("overheadPerCallMs", round(overheadPerCall))
          .put("redisCommandsSentPerCall", round((double) sent / calls))
          .put("redisCommandsExecutedPerCall", round((double) executed / calls))
          .put("redisBytesPerCall", Math.round((double) bytes / calls))
          .put("jvmCpuMicrosPerCall", round(jvmCpu / 1e3 / calls))
          .put("redisCpuMicrosPerCall", round(redis.totalMillis() * 1e3 / calls))
          .put("jvmKernelShare", round(jvmTask.kernelShare()))
          .put("redisKernelShare", round(redis.kernelShare()))
          .put("aofRewritingShare", round(rewrites.share()))
          .put("jvmBytesAllocatedPerCall", jvm.allocatedBytes() / calls)
          .put("gcPauseShare", round(gcShare));
      System.out.printf("%-9s %-7s %8d %,12.0f %,12.0f %7.0f%% %9.2f %9.2f %9.2f %10.3f %9.2f %9d %9.1f %9.1f %9d %4.0f%% %6.0f%%%n", fsync,
          mix.label(), n, r.callsPerSecond(), ceiling, ratio * 100, r.latencies().percentileMillis(50),
          r.latencies().percentileMillis(99), r.latencies().percentileMillis(99.9), overheadPerCall,
          (double) sent / calls, bytes / calls, jvmCpu / 1e3 / calls, redis.totalMillis() * 1e3 / calls,
          jvm.allocatedBytes() / calls, gcShare * 100, rewrites.share() * 100);
      return p;
    } finally {
      vertx.close().await();
    }
  }

  private static long delta(Map<String, String> a, Map<String, String> b, String key) {
    return Long.parseLong(b.getOrDefault(key, "0")) - Long.parseLong(a.getOrDefault(key, "0"));
  }

  static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }
}
