package dev.ratchet.server.bench;

import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.embedded.RedisServerProcess;
import dev.ratchet.runtime.retention.RetentionOptions;
import dev.ratchet.runtime.retention.RetentionPolicy;
import dev.ratchet.runtime.retention.RetentionSweeper;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import dev.ratchet.verticles.impl.RatchetNodeImpl;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The soak benchmark: turns at a fixed rate for a long time, over sessions that each take a few
 * turns and then go idle, as a service's conversations do. Prints, over time, Redis's
 * {@code used_memory}, its AOF size and key count, the AOF rewrites and how long each took; then
 * the p99 turn latency of the first and the second half, and the bytes a turn and an idle session
 * cost. With retention on, completed turns beyond each session's last few are archived and
 * removed, and idle sessions archived whole, so memory should stay flat after the warm-up.
 */
record SoakRun(Duration duration, double turnsPerSec, boolean retentionOn, int turnsPerSession, Duration sample,
               String redisUrl) {

  /** "30m", "90s", "2h", "500ms" or a number of seconds. */
  static Duration parseDuration(String text) {
    try {
      Duration d = parse(text.trim().toLowerCase());
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("a positive duration like 30m, 90s, 2h or 500ms, not '" + text + "'");
      }
      return d;
    } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
      throw new IllegalArgumentException("a duration like 30m, 90s, 2h or 500ms, not '" + text + "'");
    }
  }

  private static Duration parse(String t) {
    String text = t;
    if (t.endsWith("ms")) {
      return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
    }
    char unit = t.charAt(t.length() - 1);
    if (Character.isDigit(unit)) {
      return Duration.ofSeconds(Long.parseLong(t));
    }
    long n = Long.parseLong(t.substring(0, t.length() - 1));
    switch (unit) {
      case 's':
        return Duration.ofSeconds(n);
      case 'm':
        return Duration.ofMinutes(n);
      case 'h':
        return Duration.ofHours(n);
      default:
        throw new IllegalArgumentException("a duration like 30m, 90s, 2h or 500ms, not '" + text + "'");
    }
  }

  JsonObject run() throws Exception {
    RedisServerProcess own = redisUrl == null ? RedisServerProcess.startTemporary("ratchet-soak", "everysec") : null;
    String url = own == null ? redisUrl : own.url();
    Path archiveDir = Files.createTempDirectory("ratchet-soak-archive");
    Vertx vertx = Vertx.vertx();
    try {
      // idle after a twentieth of the run (at least 5 s), tombstones for a tenth, archived sessions
      // forgotten once their tombstones are gone: a session is born, archived and forgotten within the
      // warm-up (the first fifth), and every later sample is of the steady state
      long idleMillis = Math.max(5_000, duration.toMillis() / 20);
      Duration window = Duration.ofMillis(Math.max(5_000, duration.toMillis() / 10));
      RetentionOptions retention = RetentionOptions.DISABLED.withEnabled(retentionOn)
          .withDefaultPolicy(new RetentionPolicy(null, 2, Duration.ofMillis(idleMillis)))
          .withTombstoneWindow(window).withForgetAfter(window)
          .withSweepInterval(Duration.ofSeconds(1)).withArchiveDir(archiveDir.toString()).withSweepBatch(1000);
      RatchetNode ratchet = RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl(url).maxPoolSize(32)
          .keyPrefix("soak-" + UUID.randomUUID().toString().substring(0, 6)).sessionIdleMillis(5_000)
          .retention(retention)).await();
      ratchet.register(Workload.agent()).await();
      RatchetNodeImpl impl = (RatchetNodeImpl) ratchet;
      RedisJournal journal = impl.redisJournal();
      if (own != null) {
        // rewrites at a size a run of minutes reaches, so that their durations can be seen
        journal.send(Request.cmd(Command.CONFIG).arg("SET").arg("auto-aof-rewrite-min-size").arg("8mb")).await();
      }
      System.out.printf("soak: %s at %.0f turns/s (%d calls each), %d turns per session then idle, retention %s"
              + " (keepLast 2, idleAfter %d s, tombstones and forgetArchivedAfter %d s), Redis %s%n", duration,
          turnsPerSec, Workload.Mix.MIX.calls.size(), turnsPerSession, retentionOn ? "on" : "off", idleMillis / 1000,
          window.toSeconds(), own == null ? url : "temporary, auto-aof-rewrite-min-size 8mb");
      System.out.printf("%8s %14s %14s %14s %10s %10s %9s %9s %10s %10s%n", "elapsed", "used_memory", "aof_size",
          "aof_base", "keys", "turns", "rewrites", "removed", "archived", "forgotten");
      Soak soak = new Soak(vertx, journal);
      JsonArray samples = new JsonArray();
      long start = System.nanoTime();
      long end = start + duration.toNanos();
      long mid = start + duration.toNanos() / 2;
      Latencies first = new Latencies();
      Latencies second = new Latencies();
      AtomicLong completed = new AtomicLong();
      AtomicLong failed = new AtomicLong();
      String run = UUID.randomUUID().toString().substring(0, 6);
      Thread arrivals = new Thread(() -> {
        for (long i = 0; ; i++) {
          long dueAt = start + (long) (i * 1e9 / turnsPerSec);
          if (dueAt >= end) {
            return;
          }
          long wait = dueAt - System.nanoTime();
          if (wait > 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(wait);
          }
          // sessions take their turns one after another, a few at a time, then go idle for good
          long session = i / turnsPerSession;
          String id = "soak-" + run + "-" + session;
          ratchet.submit(Workload.AGENT, id, new Turn("t" + i, Workload.Mix.MIX.calls)).onComplete(ar -> {
            if (ar.succeeded()) {
              (dueAt < mid ? first : second).add((System.nanoTime() - dueAt) / 1000);
              completed.incrementAndGet();
            } else {
              failed.incrementAndGet();
            }
          });
        }
      }, "soak-arrivals");
      arrivals.start();
      long nextSample = start;
      while (System.nanoTime() < end) {
        if (System.nanoTime() >= nextSample) {
          JsonObject s = soak.sample(System.nanoTime() - start, completed.get(), impl.retention());
          samples.add(s);
          System.out.printf("%7.0fs %14d %14d %14d %10d %10d %9d %9d %10d %10d%n", s.getDouble("elapsedS"),
              s.getLong("usedMemory"), s.getLong("aofSize"), s.getLong("aofBase"), s.getLong("keys"), s.getLong("turns"),
              s.getLong("rewrites"), s.getLong("turnsRemoved"), s.getLong("sessionsArchived"),
              s.getLong("sessionsForgotten"));
          nextSample += sample.toNanos();
        }
        Thread.sleep(100);
      }
      arrivals.join();
      long grace = System.currentTimeMillis() + 10_000;
      while (first.size() + second.size() + failed.get() < (long) (duration.toNanos() / 1e9 * turnsPerSec)
          && System.currentTimeMillis() < grace) {
        Thread.sleep(50);
      }
      JsonObject last = soak.sample(System.nanoTime() - start, completed.get(), impl.retention());
      samples.add(last);
      soak.stop();
      JsonObject summary = summary(samples, first, second, failed.get(), soak, journal, ratchet, archiveDir);
      ratchet.close().await();
      return summary;
    } finally {
      vertx.close();
      RedisServerProcess.deleteDataDir(archiveDir);
      if (own != null) {
        own.close();
      }
    }
  }

  private JsonObject summary(JsonArray samples, Latencies first, Latencies second, long failed, Soak soak,
                             RedisJournal journal, RatchetNode ratchet, Path archiveDir) throws Exception {
    // after warm-up: from the sample nearest a fifth of the run
    int warm = Math.max(1, samples.size() / 5);
    JsonObject w = samples.getJsonObject(Math.min(warm, samples.size() - 1));
    JsonObject last = samples.getJsonObject(samples.size() - 1);
    double memDrift = pct(w.getLong("usedMemory"), last.getLong("usedMemory"));
    double aofDrift = pct(w.getLong("aofSize"), last.getLong("aofSize"));
    long turns = last.getLong("turns") - w.getLong("turns");
    long bytesPerTurn = turns <= 0 ? 0 : (last.getLong("usedMemory") - w.getLong("usedMemory")) / turns;
    long archiveBytes = 0;
    try (var files = Files.list(archiveDir)) {
      for (Path p : files.toList()) {
        archiveBytes += Files.size(p);
      }
    }
    long idleSession = bytesOfOneArchivedSession(journal, ratchet);
    // the AOF is a sawtooth: it grows by every step and a rewrite shrinks it to the live data, so what
    // tells whether it grows is its size after each rewrite (aof_base_size) and its peak per half
    long firstBase = 0;
    for (int i = warm; i < samples.size() && firstBase == 0; i++) {
      firstBase = samples.getJsonObject(i).getLong("aofBase", 0L);
    }
    double baseDrift = pct(firstBase, last.getLong("aofBase", 0L));
    long firstPeak = 0;
    long secondPeak = 0;
    int half = warm + (samples.size() - warm) / 2;
    for (int i = warm; i < samples.size(); i++) {
      long size = samples.getJsonObject(i).getLong("aofSize");
      if (i < half) {
        firstPeak = Math.max(firstPeak, size);
      } else {
        secondPeak = Math.max(secondPeak, size);
      }
    }
    System.out.printf("after warm-up (%.0fs) to the end: used_memory %+.1f %% (%d to %d), AOF %+.1f %%, AOF after"
            + " a rewrite %+.1f %% (%d to %d), AOF peak %d then %d; %d bytes of used_memory per turn%n",
        w.getDouble("elapsedS"), memDrift, w.getLong("usedMemory"), last.getLong("usedMemory"), aofDrift, baseDrift,
        firstBase, last.getLong("aofBase", 0L), firstPeak, secondPeak, bytesPerTurn);
    System.out.printf("turn latency p99: first half %.1f ms, second half %.1f ms (p50 %.1f / %.1f ms); %d turns failed%n",
        first.percentileMillis(99), second.percentileMillis(99), first.percentileMillis(50),
        second.percentileMillis(50), failed);
    System.out.printf("AOF rewrites: %d, durations (s): %s%n", soak.rewriteSeconds.size(), soak.rewriteSeconds);
    System.out.printf("archive written: %d bytes; an idle archived session keeps %s in Redis%n", archiveBytes,
        idleSession < 0 ? "(none archived yet)" : idleSession + " bytes");
    return new JsonObject().put("soak", true).put("retention", retentionOn).put("seconds", duration.toSeconds())
        .put("turnsPerSec", turnsPerSec).put("usedMemoryDriftPct", memDrift).put("aofDriftPct", aofDrift)
        .put("aofBaseDriftPct", baseDrift).put("aofPeakFirstHalf", firstPeak).put("aofPeakSecondHalf", secondPeak)
        .put("bytesPerTurn", bytesPerTurn).put("p99FirstHalfMs", first.percentileMillis(99))
        .put("p99SecondHalfMs", second.percentileMillis(99)).put("turnsFailed", failed)
        .put("rewriteSeconds", new JsonArray(new ArrayList<>(soak.rewriteSeconds))).put("archiveBytes", archiveBytes)
        .put("idleSessionBytes", idleSession).put("samples", samples);
  }

  /** MEMORY USAGE of every key of one archived session, plus its entries in the session indexes; -1 when none is archived. */
  private static long bytesOfOneArchivedSession(RedisJournal journal, RatchetNode ratchet) {
    List<String> recent = ratchet.journal().recentSessions(0, 2000).await();
    for (int i = recent.size() - 1; i >= 0; i--) {
      String id = recent.get(i);
      JsonObject info = ratchet.journal().sessionInfo(id).await();
      if (info.getLong("archivedAt", 0L) < info.getLong("updatedAt", Long.MAX_VALUE)) {
        continue;
      }
      Response keys = journal.send(Request.cmd(Command.KEYS).arg("*{" + id + "}*")).await();
      long bytes = 0;
      for (Response k : keys) {
        Response usage = journal.send(Request.cmd(Command.MEMORY).arg("USAGE").arg(k.toString())).await();
        bytes += usage == null ? 0 : usage.toLong();
      }
      // plus its entry in the activity index: its id and a score
      return bytes + id.length() + 16;
    }
    return -1;
  }

  private static double pct(long from, long to) {
    return from == 0 ? 0 : 100.0 * (to - from) / from;
  }

  /** Redis's figures over the run, and the AOF rewrites seen (sampled every 250 ms). */
  private static final class Soak {
    private final Vertx vertx;
    private final RedisJournal journal;
    private final long timer;
    final List<Long> rewriteSeconds = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile boolean rewriting;

    Soak(Vertx vertx, RedisJournal journal) {
      this.vertx = vertx;
      this.journal = journal;
      this.timer = vertx.setPeriodic(250, t -> journal.diagnostics().info("persistence").onSuccess(p -> {
        boolean now = "1".equals(p.get("aof_rewrite_in_progress"));
        if (rewriting && !now) {
          rewriteSeconds.add(Long.parseLong(p.getOrDefault("aof_last_rewrite_time_sec", "-1")));
        }
        rewriting = now;
      }));
    }

    JsonObject sample(long elapsedNanos, long turns, RetentionSweeper sweeper) {
      Map<String, String> memory = journal.diagnostics().info("memory").await();
      Map<String, String> persistence = journal.diagnostics().info("persistence").await();
      long keys = journal.send(Request.cmd(Command.DBSIZE)).await().toLong();
      return new JsonObject().put("elapsedS", elapsedNanos / 1e9)
          .put("usedMemory", Long.parseLong(memory.getOrDefault("used_memory", "0")))
          .put("aofSize", Long.parseLong(persistence.getOrDefault("aof_current_size", "0")))
          .put("aofBase", Long.parseLong(persistence.getOrDefault("aof_base_size", "0")))
          .put("keys", keys).put("turns", turns).put("rewrites", (long) rewriteSeconds.size())
          .put("turnsRemoved", sweeper.stats().turnsRemoved).put("sessionsArchived", sweeper.stats().sessionsArchived)
          .put("sessionsForgotten", sweeper.stats().sessionsForgotten);
    }

    void stop() {
      vertx.cancelTimer(timer);
    }
  }
}
