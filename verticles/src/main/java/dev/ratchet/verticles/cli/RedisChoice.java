package dev.ratchet.verticles.cli;

import dev.ratchet.runtime.redis.RedisServerProcess;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.file.Path;

/** The configured Redis, or an embedded redis-server with AOF when none is configured. */
final class RedisChoice implements AutoCloseable {

  final String url;
  final RedisServerProcess embedded;

  private RedisChoice(String url, RedisServerProcess embedded) {
    this.url = url;
    this.embedded = embedded;
  }

  static RedisChoice from(JsonObject config) throws IOException {
    JsonObject redis = config.getJsonObject("redis");
    String url = redis.getString("url");
    if (url != null && !url.isBlank()) {
      return new RedisChoice(url, null);
    }
    JsonObject embedded = redis.getJsonObject("embedded", new JsonObject());
    Path dir = Path.of(embedded.getString("dataDir", "./data/redis"));
    String rewritePriority = embedded.getString("rewritePriority", RedisServerProcess.defaultRewritePriority());
    RedisServerProcess server = RedisServerProcess.start(RedisServerProcess.findBinary(), embedded.getInteger("port", 0),
        dir, embedded.getString("appendfsync", "everysec"), rewritePriority);
    // on one host a Unix socket spares every journal step the TCP stack; the port stays open for tools
    String journalUrl = server.unixSocketUrl().orElse(server.url());
    System.out.println("Started embedded Redis (" + server.binary() + ") on port " + server.port()
        + server.unixSocket().map(socket -> ", journal over its socket " + socket).orElse("")
        + ", data in " + dir.toAbsolutePath().normalize()
        + (server.rewritesAtIdlePriority() ? ", its AOF rewrites at idle CPU priority" : ""));
    return new RedisChoice(journalUrl, server);
  }

  @Override
  public void close() {
    if (embedded != null) {
      embedded.close();
    }
  }
}
