package dev.ratchet.server.bench;

import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.IdempotencyKey;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.embedded.RedisServerProcess;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import dev.ratchet.server.impl.TransportChoice;
import dev.ratchet.verticles.impl.RatchetNodeImpl;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Durable tool calls per second, turn latency and overhead, Redis cost per call, the fenced-append
 * ceiling of the same Redis in the same run, recovery time and heap per session. Prints a table,
 * writes a plot, and ends with one JSON line.
 */
@CommandLine.Command(name = "bench", mixinStandardHelpOptions = true, description = "Measure durable tool calls per second, latency and recovery.")
public final class BenchCommand implements Callable<Integer> {

  @CommandLine.Option(names = "--sessions", split = ",", defaultValue = "1,100,10000",
      description = "concurrent sessions per point (${DEFAULT-VALUE})")
  List<Integer> sessions;

  @CommandLine.Option(names = "--mixes", split = ",", defaultValue = "mix,reads,writes",
      description = "turn shapes: mix (3 reads + 2 writes), reads, writes (${DEFAULT-VALUE})")
  List<String> mixes;

  @CommandLine.Option(names = "--fsync", split = ",", defaultValue = "everysec,always",
      description = "appendfsync of the embedded Redis, one run each (${DEFAULT-VALUE})")
  List<String> fsyncs;

  @CommandLine.Option(names = "--seconds", defaultValue = "10", description = "measured seconds per point")
  int seconds;

  @CommandLine.Option(names = "--warmup", defaultValue = "3", description = "warm-up seconds per point")
  int warmup;

  @CommandLine.Option(names = "--jit-warmup", defaultValue = "15",
      description = "seconds of turns, over 100 sessions and the mixes asked for, run once before the first point so"
          + " that the JIT compiler has finished with the turn path when points are measured (${DEFAULT-VALUE});"
          + " 0 skips it")
  int jitWarmup;

  @CommandLine.Option(names = "--recovery-sessions", defaultValue = "10000",
      description = "sessions with a turn in flight for the recovery probe; 0 skips it")
  int recoverySessions;

  @CommandLine.Option(names = "--open-loop", split = ",", defaultValue = "mix",
      description = "mixes also run open-loop at half of their peak calls/s, for the latency at that load;"
          + " 'none' skips (${DEFAULT-VALUE})")
  List<String> openLoopMixes;

  @CommandLine.Option(names = "--open-loop-sessions", defaultValue = "1000",
      description = "sessions the open-loop turns are spread over (${DEFAULT-VALUE})")
  int openLoopSessions;

  @CommandLine.Option(names = "--open-loop-warmup", defaultValue = "30",
      description = "seconds the open-loop load runs over its sessions before it is measured (${DEFAULT-VALUE}):"
          + " long enough for the runtime to reach its steady state, the sessions' long-lived objects promoted"
          + " out of the young generation")
  int openLoopWarmup;

  @CommandLine.Option(names = "--open-loop-rate", defaultValue = "0",
      description = "offered calls/s of the open-loop phase instead of half of the measured peak; skips the"
          + " closed-loop points, to repeat a latency measurement at a load found earlier")
  double openLoopRate;

  @CommandLine.Option(names = "--turn-times",
      description = "writes each measured open-loop turn's due time (ms into the phase) and latency (µs) to this"
          + " file, suffixed with the fsync and mix, one turn a line: when the slow turns came")
  Path turnTimes;

  @CommandLine.Option(names = "--heap-sessions", defaultValue = "-1",
      description = "sessions for the heap probe (active, then passivated); default: --recovery-sessions; 0 skips it")
  int heapSessions;

  @CommandLine.Option(names = "--recovery-only", description = "only the recovery and heap probes, no throughput points")
  boolean recoveryOnly;

  @CommandLine.Option(names = "--plot", defaultValue = "docs/bench-sessions.png", description = "PNG to write")
  Path plot;

  @CommandLine.Option(names = "--soak", description = "run the soak benchmark for this long instead (30m, 90s, 2h)")
  String soak;

  @CommandLine.Option(names = "--rate", defaultValue = "200", description = "soak: turns per second (${DEFAULT-VALUE})")
  double rate;

  @CommandLine.Option(names = "--retention", defaultValue = "on", description = "soak: on or off (${DEFAULT-VALUE})")
  String retention;

  @CommandLine.Option(names = "--soak-turns-per-session", defaultValue = "10",
      description = "soak: turns each session takes before it goes idle (${DEFAULT-VALUE})")
  int soakTurnsPerSession;

  @CommandLine.Option(names = "--soak-sample", description = "soak: seconds between samples (default: a twentieth of the run)")
  Double soakSample;

  @CommandLine.Option(names = "--nodes", split = ",", description = "run the cluster benchmark instead: turns/s and"
      + " CPU per turn for clusters of these sizes on this machine (1,2,3); --seconds and --warmup apply")
  List<Integer> nodes;

  @CommandLine.Option(names = "--takeover", description = "run the cluster takeover benchmark instead: this many"
      + " sessions with a write waiting for approval on a member killed with SIGKILL (docs/CLUSTER.md)")
  Integer takeover;

  @CommandLine.Option(names = "--takeover-freeze", description = "takeover: stop the member with SIGSTOP (silent,"
      + " as on a network loss) instead of SIGKILL")
  boolean takeoverFreeze;

  @CommandLine.Option(names = "--sweep", description = "run the retention sweep probe instead: one session of"
      + " TURNSxCALLS completed turns (150x64) archived whole by one check; prints how long it took and the"
      + " longest an event loop waited meanwhile")
  String sweep;

  @CommandLine.Option(names = "--quick", description = "one short point: 16 sessions, mix, everysec, no recovery")
  boolean quick;

  @CommandLine.Option(names = "--traces", description = "run each point twice, tracing off then on (OTLP/HTTP to a"
      + " local collector; docs/OBSERVABILITY.md)")
  boolean traces;

  @CommandLine.Option(names = "--redis-url", description = "use this Redis instead of starting one (fsync list ignored)")
  String redisUrl;

  @CommandLine.Option(names = "--transport", defaultValue = TransportChoice.NATIVE,
      description = "network transport of the runtime's Vert.x, as node.transport of 'run': native (Linux epoll"
          + " where Netty's library loads, else NIO) or nio (${DEFAULT-VALUE})")
  String transportName;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  private KernelDamon damon;
  private TransportChoice transport;

  @Override
  public Integer call() throws Exception {
    if (nodes != null && !nodes.isEmpty()) {
      if (nodes.stream().anyMatch(n -> n < 1)) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--nodes takes cluster sizes of at least 1");
      }
      io.vertx.core.json.JsonArray points = new dev.ratchet.server.chaos.ClusterBench(nodes, 64, 256,
          Math.max(10, warmup) * 1000L, seconds * 1000L, redisUrl, System.out).run();
      System.out.println(points.encode());
      return 0;
    }
    if (takeover != null) {
      if (takeover < 1) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--takeover must be a positive number of sessions");
      }
      JsonObject summary = new dev.ratchet.server.cluster.TakeoverRun(takeover, takeoverFreeze, redisUrl).run();
      System.out.println(summary.encode());
      return summary.getLong("duplicates") == 0 && summary.getInteger("landed").equals(takeover) ? 0 : 1;
    }
    if (soak != null) {
      return soak();
    }
    if (sweep != null) {
      return sweep();
    }
    damon = KernelDamon.running(KernelDamon.SYSFS);
    try {
      transport = TransportChoice.of(transportName);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--transport: " + e.getMessage());
    }
    if (quick) {
      sessions = List.of(16);
      mixes = List.of("mix");
      fsyncs = List.of("everysec");
      seconds = Math.min(seconds, 8);
      jitWarmup = Math.min(jitWarmup, 5);
      recoverySessions = 0;
      plot = null;
      openLoopMixes = List.of("none");
    }
    if (heapSessions < 0) {
      heapSessions = recoverySessions;
    }
    if (recoveryOnly) {
      sessions = List.of();
      mixes = List.of();
      fsyncs = fsyncs.subList(0, 1);
    }
    JsonArray points = new JsonArray();
    JsonArray openLoops = new JsonArray();
    Map<String, List<BenchPlot.Point>> series = new LinkedHashMap<>();
    JsonObject recovery = null;
    System.out.printf("bench on %d cores, %s, Java %s, network transport: %s%n",
        Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"), System.getProperty("java.version"),
        transport.describe());
    for (KernelDamon.Monitor m : damon.monitors()) {
      System.out.printf("the kernel's DAMON memory monitor is on: %s; it takes a core for a moment at each sample,"
          + " which shows in the tail (docs/PERFORMANCE.md)%n", m.describe());
    }
    System.out.printf("%-9s %-7s %8s %12s %12s %8s %9s %9s %9s %10s %9s %9s %9s %9s %9s %5s %7s%n", "fsync", "mix", "sessions",
        "calls/s", "ceiling/s", "ratio", "p50 ms", "p99 ms", "p999 ms", "ovh/call", "cmds/call", "bytes/call",
        "jvm us/c", "redis us/c", "alloc/c", "gc %", "aofrw %");
    for (String fsync : redisUrl == null ? fsyncs : List.of("external")) {
      RedisServerProcess own = redisUrl == null ? RedisServerProcess.startTemporary("ratchet-bench", fsync) : null;
      String url = own == null ? redisUrl : own.url();
      if (own != null) {
        System.out.printf("Redis %s, appendfsync %s: its AOF rewrites at %s CPU priority%n", own.url(), fsync,
            own.rewritesAtIdlePriority() ? "idle" : "normal");
      }
      try {
        // also before an open loop alone: offered at a fixed rate to a runtime that C2 has not
        // compiled yet, turns pile up faster than they complete and the backlog outlives the warm-up
        if (jitWarmup > 0 && !mixes.isEmpty() && points.isEmpty() && openLoops.isEmpty()
            && (openLoopRate > 0 ? !openLoopMixes.contains("none") : !sessions.isEmpty())) {
          jitWarmUp(url);
        }
        for (String mixName : mixes) {
          Workload.Mix mix = Workload.Mix.valueOf(mixName.toUpperCase());
          double peak = 0;
          for (int n : openLoopRate > 0 ? List.<Integer>of() : sessions) {
            JsonObject point = tracedPoints(url, fsync, mix, n, points);
            peak = Math.max(peak, point.getDouble("callsPerSec"));
            series.computeIfAbsent(mix.label() + ", " + fsync, k -> new ArrayList<>())
                .add(new BenchPlot.Point(n, point.getDouble("callsPerSec"), point.getDouble("turnP99Ms")));
          }
          if (openLoopMixes.contains(mixName) && (peak > 0 || openLoopRate > 0)) {
            double rate = openLoopRate > 0 ? openLoopRate : peak / 2;
            if (own == null) {
              openLoops.add(openLoop(url, fsync, mix, rate));
            } else {
              // the closed-loop points leave millions of keys behind; Redis rewriting an AOF that size
              // takes a core for the whole phase, so the latency is measured on a Redis of its own,
              // holding only this phase's sessions
              try (RedisServerProcess fresh = RedisServerProcess.startTemporary("ratchet-bench", fsync)) {
                openLoops.add(openLoop(fresh.url(), fsync, mix, rate));
              }
            }
          }
        }
        if (recovery == null && (recoverySessions > 0 || heapSessions > 0)) {
          recovery = new JsonObject();
          if (recoverySessions > 0) {
            RecoveryProbe.Recovery f = RecoveryProbe.recovery(transport, url, recoverySessions);
            recovery.put("sessions", f.sessions()).put("resumed", f.resumed()).put("resumeMs", f.resumeMillis())
                .put("resumeJvmCpuMs", f.jvmCpuMillis()).put("resumeRedisCpuMs", f.redisCpuMillis());
            System.out.printf("recovery: %,d sessions with a turn in flight, %,d resumed in %,d ms (CPU: runtime %,d ms,"
                    + " Redis %,d ms)%n", f.sessions(), f.resumed(), f.resumeMillis(), f.jvmCpuMillis(),
                f.redisCpuMillis());
          }
          if (heapSessions > 0) {
            RecoveryProbe.Heap h = RecoveryProbe.heap(transport, url, heapSessions);
            recovery.put("heapSessions", h.sessions()).put("heapBytesPerActiveSession", h.heapPerActiveSession())
                .put("heapBytesPerPassivatedSession", h.heapPerPassivatedSession())
                .put("passivateAllMs", h.passivateMillis());
            System.out.printf("heap: %,d sessions (%,d active when measured): %,d bytes per active session, %,d per"
                    + " passivated session (all passivated %,d ms after)%n", h.sessions(), h.activeAtMeasure(),
                h.heapPerActiveSession(), h.heapPerPassivatedSession(), h.passivateMillis());
          }
        }
      } finally {
        if (own != null) {
          own.close();
        }
      }
    }
    double direct = recoveryOnly ? 0 : directCallsPerSecond();
    if (!recoveryOnly) {
      System.out.printf("direct tool calls/s (same tools, no journal): %,.0f%n", direct);
    }
    if (plot != null && !series.isEmpty()) {
      BenchPlot.write(plot, "Ratchet bench: " + Runtime.getRuntime().availableProcessors() + " cores, Redis on loopback",
          series);
      System.out.println("plot written to " + plot);
    }
    JsonObject summary = new JsonObject().put("transport", transport.name()).put("points", points).put("openLoop", openLoops)
        .put("directCallsPerSec", Math.round(direct));
    if (recovery != null) {
      summary.put("recovery", recovery);
    }
    System.out.println(summary.encode());
    return 0;
  }

  /**
   * The turn path runs for a while before anything is measured: C2 compiles it within the first ten
   * seconds or so, and while it does, the compiler threads take CPU from the event loops and Redis.
   */
  private int soak() throws Exception {
    java.time.Duration length;
    try {
      length = SoakRun.parseDuration(soak);
    } catch (RuntimeException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--soak: " + e.getMessage());
    }
    if (!"on".equals(retention) && !"off".equals(retention)) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--retention: on or off, not '" + retention + "'");
    }
    if (rate <= 0 || soakTurnsPerSession < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--rate and --soak-turns-per-session must be positive");
    }
    java.time.Duration every = soakSample != null ? java.time.Duration.ofMillis((long) (soakSample * 1000))
        : java.time.Duration.ofMillis(Math.max(1000, length.toMillis() / 20));
    JsonObject summary = new SoakRun(length, rate, "on".equals(retention), soakTurnsPerSession, every, redisUrl).run();
    System.out.println(summary.copy().put("samples", summary.getJsonArray("samples").size()).encode());
    return 0;
  }

  private int sweep() throws IOException {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,5})x(\\d{1,4})").matcher(sweep);
    if (!m.matches() || Integer.parseInt(m.group(1)) < 1 || Integer.parseInt(m.group(2)) < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--sweep: TURNSxCALLS such as 150x64, not '"
          + sweep + "'");
    }
    Vertx vertx = TransportChoice.of(transportName).vertx();
    try {
      SweepProbe.Sweep s = SweepProbe.run(vertx, redisUrl, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
      System.out.printf("retention sweep: %d turns of %d calls archived in %,d ms; longest event-loop stall %,d ms%n",
          s.turns(), s.calls(), s.sweepMillis(), s.longestStallMillis());
      System.out.println(s.toJson().encode());
      return s.turnsRemoved() == s.turns() ? 0 : 1;
    } finally {
      vertx.close().await();
    }
  }

  private void jitWarmUp(String url) throws InterruptedException {
    long t0 = System.currentTimeMillis();
    Vertx vertx = transport.vertx();
    try {
      RatchetNode ratchet = RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl(url).maxPoolSize(64)
          .keyPrefix("bench-" + UUID.randomUUID().toString().substring(0, 6))).await();
      ratchet.register(Workload.agent()).await();
      Workload.Sessions warm = new Workload.Sessions(100);
      // the points read Redis's INFO and command statistics around and during their turns: the
      // compiled turn path meets those commands and replies here, not in the measured seconds
      RewriteWatch watch = new RewriteWatch(vertx, ratchet);
      AtomicBoolean warming = new AtomicBoolean(true);
      Thread stats = new Thread(() -> {
        while (warming.get()) {
          try {
            ((RatchetNodeImpl) ratchet).redisJournal().diagnostics().commandStats().await();
            ratchet.diagnostics().info("cpu").await();
          } catch (RuntimeException e) {
            // a statistics read that failed changes nothing in the warm-up
          }
          try {
            Thread.sleep(500);
          } catch (InterruptedException e) {
            return;
          }
        }
      }, "bench-jit-warmup-stats");
      stats.setDaemon(true);
      stats.start();
      for (String mixName : mixes) {
        warm.run(ratchet, Workload.Mix.valueOf(mixName.toUpperCase()), jitWarmup * 1000L / mixes.size());
      }
      warming.set(false);
      stats.join();
      watch.stop();
      ratchet.close().await();
    } finally {
      vertx.close().await();
    }
    System.out.printf("JIT warm-up: %,d ms of turns before the first point%n", System.currentTimeMillis() - t0);
  }

  /** The point, measured once, or with {@code --traces} tracing off then on; the last one measured. */
  private JsonObject tracedPoints(String url, String fsync, Workload.Mix mix, int n, JsonArray points)
      throws InterruptedException, IOException {
    JsonObject point = null;
    for (boolean on : traces ? List.of(false, true) : List.of(false)) {
      if (traces) {
        System.out.println("tracing " + (on ? "on (every span sampled, OTLP/HTTP protobuf to a local collector):"
            : "off:"));
      }
      try (BenchTraces t = BenchTraces.install(on)) {
        point = point(url, fsync, mix, n);
        if (traces) {
          point.put("traces", on);
        }
        if (t != null) {
          point.put("otlpBytesReceived", t.bytesReceived());
        }
      }
      points.add(point);
    }
    return point;
  }

  private JsonObject point(String url, String fsync, Workload.Mix mix, int n) throws InterruptedException {
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

  /** The latency at a fixed offered load of {@code callsPerSec}, after a warm-up at the same load. */
  private JsonObject openLoop(String url, String fsync, Workload.Mix mix, double callsPerSec)
      throws InterruptedException, IOException {
    Vertx vertx = transport.vertx();
    try {
      RatchetNode ratchet = RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl(url).maxPoolSize(64)
          .keyPrefix("bench-" + UUID.randomUUID().toString().substring(0, 6))).await();
      ratchet.register(Workload.agent()).await();
      OpenLoop load = new OpenLoop();
      RewriteWatch watch = new RewriteWatch(vertx, ratchet);
      load.run(ratchet, mix, callsPerSec, openLoopSessions, openLoopWarmup * 1000L);
      long rewrites0 = aofRewrites(ratchet);
      // a rewrite started before the phase may run through it: sampled, not counted
      watch.measureFromNow();
      TaskCpu redis0 = TaskCpu.ofRedis(ratchet.diagnostics().info("cpu").await());
      long jvmCpu0 = JvmCounters.processCpuNanos();
      TaskCpu jvmTask0 = TaskCpu.ofThisProcess();
      JvmCounters jvm0 = JvmCounters.now();
      long damon0 = damon.cpuMillis();
      long phaseStart = System.nanoTime();
      OpenLoop.Result r = load.run(ratchet, mix, callsPerSec, openLoopSessions, seconds * 1000L);
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
          .put("achievedCallsPerSec", Math.round(r.achievedCallsPerSec())).put("sessions", openLoopSessions)
          .put("turnsLate", r.turnsLate()).put("turnsFailed", r.turnsFailed())
          .put("turnP50Ms", round(r.latencies().percentileMillis(50)))
          .put("turnP99Ms", round(r.latencies().percentileMillis(99)))
          .put("turnP999Ms", round(r.latencies().percentileMillis(99.9)))
          .put("overheadPerCallP50Ms", round(r.overheadPerCall().percentileMillis(50)))
          .put("overheadPerCallP99Ms", round(r.overheadPerCall().percentileMillis(99)))
          .put("aofRewritesDuring", rewrites).put("aofRewritingShare", round(rewritingShare))
          .put("turnsOutsideRewrites", outside.size())
          .put("overheadPerCallP99OutsideRewritesMs", round(outside.percentileMillis(99)))
          .put("gcCollectionsDuring", jvm.collections()).put("gcMillisDuring", jvm.collectionMillis())
          .put("jvmCpuMicrosPerCall", round(jvmMicrosPerCall)).put("redisCpuMicrosPerCall", round(redisMicrosPerCall))
          .put("jvmKernelShare", round(jvmKernelShare)).put("redisKernelShare", round(redisKernelShare));
      if (!damon.monitors().isEmpty()) {
        o.put("kdamondCpuMsDuring", damonMillis);
      }
      System.out.printf("open loop, %s %s at " + (openLoopRate > 0 ? "the rate asked for" : "half of peak")
              + ": %,.0f calls/s offered, %,.0f achieved over %d sessions;"
              + " turn p50 %.2f ms, p99 %.2f ms, p999 %.2f ms; overhead per call p50 %.3f ms, p99 %.3f ms%s%n",
          fsync, mix.label(), r.offeredCallsPerSec(), r.achievedCallsPerSec(), openLoopSessions,
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

  private static long delta(Map<String, String> a, Map<String, String> b, String key) {
    return Long.parseLong(b.getOrDefault(key, "0")) - Long.parseLong(a.getOrDefault(key, "0"));
  }

  private static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }

  private double directCallsPerSecond() {
    Vertx vertx = transport.vertx();
    try {
      List<Tool> tools = new ArrayList<>();
      Workload.agent().toolSources().forEach(s -> tools.addAll(s.tools(vertx).result()));
      long calls = 0;
      long end = System.currentTimeMillis() + 2000;
      long start = System.nanoTime();
      while (System.currentTimeMillis() < end) {
        for (Tool t : tools) {
          CallId id = CallId.of("direct", "t", (int) (calls % 5));
          t.invoke(new ToolInvocation("direct", id, IdempotencyKey.of(id, new JsonObject()), 1, new JsonObject(),
              Long.MAX_VALUE)).result();
          calls++;
        }
      }
      return calls / ((System.nanoTime() - start) / 1e9);
    } finally {
      vertx.close();
    }
  }
}
