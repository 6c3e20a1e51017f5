package dev.ratchet.server.bench;

import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;

/**
 * Waits until Redis is not rewriting its AOF. A rewrite started by one phase (Ratchet's writes
 * doubled the file) would otherwise run through the next one (the ceiling) and take a core from it:
 * each side of the ratio starts its clock on a Redis that is rewriting nothing.
 */
final class AofQuiet {

  private static final long LIMIT_MS = 300_000;

  private AofQuiet() {
  }

  static void await(Vertx vertx, String redisUrl) throws InterruptedException {
    Redis redis = Redis.createClient(vertx, redisUrl);
    try {
      long deadline = System.currentTimeMillis() + LIMIT_MS;
      while (System.currentTimeMillis() < deadline) {
        String info = redis.send(Request.cmd(Command.INFO).arg("persistence")).await().toString();
        if (!info.contains("aof_rewrite_in_progress:1") && !info.contains("aof_rewrite_scheduled:1")) {
          return;
        }
        Thread.sleep(100);
      }
    } finally {
      redis.close();
    }
  }
}
