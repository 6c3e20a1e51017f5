package dev.ratchet.server.bench;

import dev.ratchet.verticles.RatchetNode;
import io.vertx.core.Vertx;

import java.util.ArrayList;
import java.util.List;

/**
 * When Redis was rewriting its AOF during a phase, sampled every 100 ms. A rewrite forks a child
 * that takes a core for seconds; on a machine where Redis and the runtime share two cores that is
 * most of a tail, so the bench tells turns that overlapped one from turns that did not.
 */
final class RewriteWatch {

  private static final long PERIOD_MS = 100;

  private final Vertx vertx;
  private final long timer;
  private final List<long[]> windows = new ArrayList<>();
  private long samples;
  private long rewritingSamples;
  private long openSince = -1;
  private long lastSampleSentAt;

  RewriteWatch(Vertx vertx, RatchetNode ratchet) {
    this.vertx = vertx;
    this.lastSampleSentAt = System.nanoTime();
    this.timer = vertx.setPeriodic(PERIOD_MS, id -> {
      long sentAt = System.nanoTime();
      ratchet.diagnostics().info("persistence").onSuccess(info -> sample(sentAt,
          "1".equals(info.get("aof_rewrite_in_progress"))));
    });
  }

  private synchronized void sample(long sentAt, boolean rewriting) {
    samples++;
    long now = System.nanoTime();
    if (rewriting) {
      rewritingSamples++;
      if (openSince < 0) {
        // it may have begun right after the previous sample
        openSince = lastSampleSentAt;
      }
    } else if (openSince >= 0) {
      windows.add(new long[] {openSince, now});
      openSince = -1;
    }
    lastSampleSentAt = sentAt;
  }

  /**
   * Forgets what was sampled so far: the watch is started with the warm-up, so that the runtime's
   * compiled code has met its INFO commands before the measured seconds (the first ones of a phase
   * otherwise made the JIT drop and recompile the Redis client's hot path, which halved the
   * throughput for up to a second), and measures from here.
   */
  synchronized void measureFromNow() {
    samples = 0;
    rewritingSamples = 0;
    windows.clear();
  }

  synchronized void stop() {
    vertx.cancelTimer(timer);
    if (openSince >= 0) {
      windows.add(new long[] {openSince, Long.MAX_VALUE});
      openSince = -1;
    }
  }

  /** The share of samples that found a rewrite running. */
  synchronized double share() {
    return (double) rewritingSamples / Math.max(1, samples);
  }

  /** Whether a rewrite ran at any moment between the two instants ({@link System#nanoTime()}). */
  synchronized boolean overlaps(long from, long to) {
    for (long[] w : windows) {
      if (from <= w[1] && to >= w[0]) {
        return true;
      }
    }
    return false;
  }
}
