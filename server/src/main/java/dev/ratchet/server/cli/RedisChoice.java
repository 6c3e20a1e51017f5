package dev.ratchet.server.cli;

import dev.ratchet.runtime.journal.RedisTopology;
import dev.ratchet.embedded.EmbeddedRedis;
import dev.ratchet.embedded.RedisServerProcess;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.file.Path;

/** The configured Redis, or an embedded redis-server with AOF when none is configured. */
final class RedisChoice implements AutoCloseable {

  final String url;
  final EmbeddedRedis embedded;

  private RedisChoice(String url, EmbeddedRedis embedded) {
    this.url = url;
    this.embedded = embedded;
  }

  static RedisChoice from(JsonObject config) throws IOException {
    JsonObject redis = config.getJsonObject("redis");
    String url = redis.getString("url");
    if (url != null && !url.isBlank() || !RedisTopology.fromJson(redis).isStandalone()) {
      // a Cluster or a Sentinel-managed master is reached through redis.endpoints
      return new RedisChoice(url, null);
    }
    JsonObject settings = redis.getJsonObject("embedded", new JsonObject());
    EmbeddedRedis.Options options = options(settings);
    EmbeddedRedis embedded = EmbeddedRedis.start(RedisServerProcess.findBinary(), options);
    embedded.notices().forEach(n -> System.out.println("Embedded Redis: " + n));
    RedisServerProcess server = embedded.server();
    // on one host a Unix socket spares every journal step the TCP stack
    System.out.println("Started embedded Redis (" + server.binary() + ")"
        + server.unixSocket().map(socket -> ", journal over its socket " + socket).orElse("")
        + (server.port() == 0 ? ", no TCP port" : ", on port " + server.port() + " of 127.0.0.1")
        + ", password in " + server.dataDir().resolve(EmbeddedRedis.PASSWORD_FILE)
        + ", data in " + server.dataDir()
        + (server.rewritesAtIdlePriority() ? ", its AOF rewrites at idle CPU priority" : ""));
    return new RedisChoice(embedded.journalUrl(), embedded);
  }

  /** The embedded Redis's settings ({@code redis.embedded}); a port of null or 0 means none. */
  static EmbeddedRedis.Options options(JsonObject settings) {
    Object value = settings.getValue("port");
    if (value != null && !(value instanceof Number)) {
      throw new IllegalArgumentException("redis.embedded.port is a port number, or null for none, not '" + value + "'");
    }
    Integer port = value == null ? null : ((Number) value).intValue();
    return new EmbeddedRedis.Options(Path.of(settings.getString("dataDir", "./data/redis")),
        port == null ? 0 : port, settings.getString("appendfsync", "everysec"),
        settings.getString("rewritePriority", RedisServerProcess.defaultRewritePriority()));
  }

  @Override
  public void close() {
    if (embedded != null) {
      embedded.close();
    }
  }
}
