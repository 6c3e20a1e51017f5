package dev.ratchet.server.bench;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.embedded.RedisServerProcess;
import dev.ratchet.runtime.retention.RetentionOptions;
import dev.ratchet.runtime.retention.RetentionPolicy;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import dev.ratchet.verticles.impl.RatchetNodeImpl;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How long retention takes to sweep one large session, and how long it holds an event loop while
 * it does: a session of {@code turns} completed turns of {@code calls} calls each (a result of about
 * 1 KiB per call) is archived whole by one check, while a timer on an event loop measures the
 * longest time it waited past its due time.
 */
final class SweepProbe {

  /** What one sweep of the session took. */
  record Sweep(int turns, int calls, long sweepMillis, long longestStallMillis, long turnsRemoved) {

    JsonObject toJson() {
      return new JsonObject().put("turns", turns).put("callsPerTurn", calls).put("sweepMs", sweepMillis)
          .put("longestEventLoopStallMs", longestStallMillis).put("turnsRemoved", turnsRemoved);
    }
  }

  private SweepProbe() {
  }

  static Sweep run(Vertx vertx, String redisUrl, int turns, int calls) throws IOException {
    Path archive = Files.createTempDirectory("ratchet-bench-archive");
    RedisServerProcess own = redisUrl == null ? RedisServerProcess.startTemporary("ratchet-bench", "everysec") : null;
    try {
      RatchetNode ratchet = RatchetNode.deploy(vertx, RatchetOptions.create()
          .redisUrl(own == null ? redisUrl : own.url())
          .keyPrefix("sweep-" + UUID.randomUUID().toString().substring(0, 6))
          .retention(RetentionOptions.DISABLED.withArchiveDir(archive.toString()))).await();
      String payload = "x".repeat(1000);
      ratchet.register(AgentDefinition.builder("sweep").toolSource(FunctionToolSource.create("sweep")
          .tool(FunctionToolSource.define("look_up", EffectClass.READ)
              .handler(inv -> Future.succeededFuture(new JsonObject().put("payload", payload))))).build()).await();
      String session = "sweep-1";
      for (int t = 0; t < turns; t++) {
        List<ToolCall> list = new ArrayList<>(calls);
        for (int c = 0; c < calls; c++) {
          list.add(new ToolCall("look_up", new JsonObject().put("turn", t).put("call", c)));
        }
        ratchet.submit("sweep", session, new Turn("t" + t, list)).await();
      }
      RatchetNodeImpl impl = (RatchetNodeImpl) ratchet;
      impl.retention().policy("sweep", new RetentionPolicy(null, null, Duration.ofMillis(1)));
      Context loop = vertx.getOrCreateContext();
      AtomicLong stall = new AtomicLong();
      long timer = watch(vertx, loop, stall);
      long removedBefore = impl.retention().stats().turnsRemoved;
      long t0 = System.nanoTime();
      Promise<Void> swept = Promise.promise();
      loop.runOnContext(v -> impl.retention().check(session, System.currentTimeMillis() + 1).onComplete(swept));
      swept.future().await();
      long millis = (System.nanoTime() - t0) / 1_000_000;
      vertx.cancelTimer(timer);
      long removed = impl.retention().stats().turnsRemoved - removedBefore;
      ratchet.close().await();
      return new Sweep(turns, calls, millis, stall.get(), removed);
    } finally {
      if (own != null) {
        own.close();
      }
    }
  }

  /** A 1 ms timer on {@code loop} that keeps the longest it fired late, in {@code stall}. */
  private static long watch(Vertx vertx, Context loop, AtomicLong stall) {
    AtomicLong last = new AtomicLong(System.nanoTime());
    Promise<Long> id = Promise.promise();
    loop.runOnContext(v -> id.complete(vertx.setPeriodic(1, t -> {
      long now = System.nanoTime();
      stall.accumulateAndGet((now - last.getAndSet(now)) / 1_000_000 - 1, Math::max);
    })));
    return id.future().await();
  }
}
