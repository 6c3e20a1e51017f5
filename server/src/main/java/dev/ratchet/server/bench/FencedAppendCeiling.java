package dev.ratchet.server.bench;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The floor a Redis journal can reach: one fenced append (HGET epoch + XADD + HSET in one Lua
 * script) per step, driven as fast as possible by the same number of concurrent sessions.
 */
final class FencedAppendCeiling {

  private static final String SCRIPT = String.join("\n",
      "if redis.call('HGET', KEYS[1], 'epoch') ~= ARGV[1] then return redis.error_reply('FENCED') end",
      "redis.call('XADD', KEYS[2], '*', 'type', 'step', 'data', ARGV[2])",
      "redis.call('HSET', KEYS[3], 'state', 'done', 'record', ARGV[2])",
      "return 1");

  private FencedAppendCeiling() {
  }

  /** Appends per second over {@code millis}, with {@code sessions} concurrent loops. */
  static double measure(Vertx vertx, String redisUrl, int sessions, long millis, int poolSize) {
    Redis redis = Redis.createClient(vertx, new RedisOptions().setConnectionString(redisUrl)
        .setMaxPoolSize(poolSize).setMaxPoolWaiting(1_000_000).setMaxWaitingHandlers(sessions + 1_024));
    try {
      String sha = redis.send(Request.cmd(Command.SCRIPT).arg("LOAD").arg(SCRIPT)).await().toString();
      String run = "ceiling-" + UUID.randomUUID().toString().substring(0, 6);
      String payload = "{\"outcome\":\"succeeded\",\"result\":{\"status\":\"ok\",\"payload\":\"" + "x".repeat(80) + "\"}}";
      List<Request> epochs = new ArrayList<>();
      for (int s = 0; s < sessions; s++) {
        epochs.add(Request.cmd(Command.HSET).arg(run + ":{" + s + "}:meta").arg("epoch").arg("1"));
      }
      // the sessions exist before the clock starts, as the runtime's sessions do after its warm-up
      redis.batch(epochs).await();
      List<Future<Void>> loops = new ArrayList<>();
      AtomicLong appends = new AtomicLong();
      long end = System.currentTimeMillis() + millis;
      long start = System.nanoTime();
      for (int s = 0; s < sessions; s++) {
        String tag = run + ":{" + s + "}";
        Promise<Void> done = Promise.promise();
        loop(redis, sha, tag, payload, end, appends, done, 0);
        loops.add(done.future());
      }
      Future.join(loops).await();
      double rate = appends.get() / ((System.nanoTime() - start) / 1e9);
      List<Request> cleanup = new ArrayList<>();
      for (int s = 0; s < sessions; s++) {
        String tag = run + ":{" + s + "}";
        cleanup.add(Request.cmd(Command.DEL).arg(tag + ":meta").arg(tag + ":events"));
      }
      redis.batch(cleanup).await();
      return rate;
    } finally {
      redis.close();
    }
  }

  private static void loop(Redis redis, String sha, String tag, String payload, long end, AtomicLong appends,
                           Promise<Void> done, int n) {
    if (System.currentTimeMillis() >= end) {
      done.complete();
      return;
    }
    redis.send(Request.cmd(Command.EVALSHA).arg(sha).arg(3).arg(tag + ":meta").arg(tag + ":events")
        .arg(tag + ":call:" + (n % 5)).arg("1").arg(payload)).onComplete(ar -> {
          if (ar.failed()) {
            done.fail(ar.cause());
            return;
          }
          appends.incrementAndGet();
          loop(redis, sha, tag, payload, end, appends, done, n + 1);
        });
  }
}
