package dev.ratchet.runtime.journal;

import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the Redis journal tells of Redis itself: health, persistence, replicas and INFO figures, for
 * the health endpoints, the start-up line, the CLI and the benchmark.
 */
public final class RedisDiagnostics implements JournalDiagnostics {

  private final RedisConnections redis;
  private final JournalKeys keys;

  RedisDiagnostics(RedisConnections redis, JournalKeys keys) {
    this.redis = redis;
    this.keys = keys;
  }

  @Override
  public Future<Void> reachable() {
    return send(Request.cmd(Command.PING)).mapEmpty();
  }

  /** Whether Redis answers and accepts writes. */
  @Override
  public Future<Void> ping() {
    return send(Request.cmd(Command.SET).arg(keys.session("health") + ":ping").arg(now()).arg("PX").arg(60_000))
        .mapEmpty();
  }

  /** What the server guarantees for an acknowledged step: AOF on/off and its fsync policy. */
  public Future<Persistence> persistence() {
    Future<Response> aof = send(Request.cmd(Command.CONFIG).arg("GET").arg("appendonly"));
    Future<Response> fsync = send(Request.cmd(Command.CONFIG).arg("GET").arg("appendfsync"));
    Future<Response> info = send(Request.cmd(Command.INFO).arg("server"));
    Future<Response> maxmemory = send(Request.cmd(Command.CONFIG).arg("GET").arg("maxmemory"));
    Future<Response> policy = send(Request.cmd(Command.CONFIG).arg("GET").arg("maxmemory-policy"));
    return Future.all(List.of(aof, fsync, info, maxmemory, policy)).map(cf -> {
      String limit = configValue(maxmemory.result());
      return new Persistence("yes".equals(configValue(aof.result())), configValue(fsync.result()),
          infoField(info.result(), "redis_version"), limit == null || limit.isEmpty() ? 0 : Long.parseLong(limit),
          configValue(policy.result()));
    });
  }

  /** The fewest replicas a master of the journal has now ({@code connected_slaves}); 0 without any. */
  public Future<Long> fewestReplicas() {
    return redis.onEveryMaster(Request.cmd(Command.INFO).arg("replication")).map(replies -> {
      long fewest = Long.MAX_VALUE;
      for (Response r : replies) {
        String connected = infoField(r, "connected_slaves");
        fewest = Math.min(fewest, "?".equals(connected) ? 0 : Long.parseLong(connected));
      }
      return fewest == Long.MAX_VALUE ? 0 : fewest;
    });
  }

  /** INFO commandstats as a map from command name to calls, for the benchmark. */
  public Future<Map<String, Long>> commandStats() {
    return send(Request.cmd(Command.INFO).arg("commandstats")).map(r -> {
      Map<String, Long> map = new HashMap<>();
      for (String line : r.toString().split("\r?\n")) {
        if (line.startsWith("cmdstat_")) {
          String name = line.substring(8, line.indexOf(':'));
          for (String part : line.substring(line.indexOf(':') + 1).split(",")) {
            if (part.startsWith("calls=")) {
              map.put(name, Long.parseLong(part.substring(6)));
            }
          }
        }
      }
      return map;
    });
  }

  /** One INFO section as a map of its fields. */
  @Override
  public Future<Map<String, String>> info(String section) {
    return send(Request.cmd(Command.INFO).arg(section)).map(r -> {
      Map<String, String> map = new HashMap<>();
      for (String line : r.toString().split("\r?\n")) {
        int colon = line.indexOf(':');
        if (colon > 0 && !line.startsWith("#")) {
          map.put(line.substring(0, colon), line.substring(colon + 1).trim());
        }
      }
      return map;
    });
  }

  /** The Redis URL with any password hidden. */
  @Override
  public String describe() {
    return redis.describe();
  }

  private static String configValue(Response r) {
    if (r == null) {
      return null;
    }
    // RESP3 answers CONFIG GET with a map, RESP2 with a [name, value] array
    if (r.type() == io.vertx.redis.client.ResponseType.MULTI && r.isMap()) {
      for (String key : r.getKeys()) {
        return r.get(key).toString();
      }
      return null;
    }
    return r.size() >= 2 && r.get(1) != null ? r.get(1).toString() : null;
  }

  private static String infoField(Response r, String field) {
    for (String line : r.toString().split("\r?\n")) {
      if (line.startsWith(field + ":")) {
        return line.substring(field.length() + 1).trim();
      }
    }
    return "?";
  }

  private Future<Response> send(Request request) {
    return redis.send(request);
  }

  private static String now() {
    return String.valueOf(System.currentTimeMillis());
  }
}
