package dev.ratchet.server.bench;

import dev.ratchet.server.impl.TransportChoice;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import dev.ratchet.verticles.impl.RatchetNodeImpl;
import io.vertx.core.Vertx;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The turn path runs for a while before anything is measured: C2 compiles it within the first ten
 * seconds or so, and while it does, the compiler threads take CPU from the event loops and Redis.
 */
final class JitWarmUp {

  private JitWarmUp() {
  }

  static void run(TransportChoice transport, String url, List<String> mixes, int jitWarmup)
      throws InterruptedException {
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
}
