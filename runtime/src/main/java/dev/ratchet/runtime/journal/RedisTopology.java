package dev.ratchet.runtime.journal;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Which Redis deployment the journal talks to: one server ({@code standalone}), a Redis Cluster
 * reached through some of its nodes ({@code cluster}), or the master that Redis Sentinels name
 * ({@code sentinel}). {@code endpoints} are {@code redis://} URLs: the seed nodes of a cluster, or
 * the sentinels; {@code masterName} is the name the sentinels monitor the master under.
 */
public record RedisTopology(Kind kind, List<String> endpoints, String masterName) {

  /** The deployments the journal can use. */
  public enum Kind {
    STANDALONE, CLUSTER, SENTINEL;

    /** The name used in configuration ({@code redis.type}). */
    public String configName() {
      return name().toLowerCase(Locale.ROOT);
    }

    static Kind of(String name) {
      for (Kind k : values()) {
        if (k.configName().equals(name)) {
          return k;
        }
      }
      throw new IllegalArgumentException("redis.type is standalone, cluster or sentinel, not '" + name + "'");
    }
  }

  /** The name Sentinel gives a master unless configured otherwise. */
  public static final String DEFAULT_MASTER_NAME = "mymaster";

  public static final RedisTopology STANDALONE = new RedisTopology(Kind.STANDALONE, List.of(), null);

  public RedisTopology {
    if (kind == null) {
      throw new IllegalArgumentException("redis.type is required");
    }
    endpoints = endpoints == null ? List.of() : List.copyOf(endpoints);
    if (kind == Kind.SENTINEL && (masterName == null || masterName.isBlank())) {
      masterName = DEFAULT_MASTER_NAME;
    }
  }

  /** A Redis Cluster reached through these seed nodes (any of its nodes; the client learns the rest). */
  public static RedisTopology cluster(List<String> seeds) {
    return new RedisTopology(Kind.CLUSTER, seeds, null);
  }

  /** The master that these sentinels monitor under {@code masterName}. */
  public static RedisTopology sentinel(List<String> sentinels, String masterName) {
    return new RedisTopology(Kind.SENTINEL, sentinels, masterName);
  }

  /** Reads {@code redis.type}, {@code redis.endpoints} and {@code redis.masterName}. */
  public static RedisTopology fromJson(JsonObject redis) {
    JsonObject r = redis == null ? new JsonObject() : redis;
    String type = r.getString("type");
    Kind kind = type == null || type.isBlank() ? Kind.STANDALONE : Kind.of(type.trim().toLowerCase(Locale.ROOT));
    List<String> endpoints = new ArrayList<>();
    Object listed = r.getValue("endpoints");
    if (listed instanceof JsonArray array) {
      array.forEach(e -> endpoints.add(String.valueOf(e)));
    } else if (listed instanceof String text && !text.isBlank()) {
      // one variable can carry the list: comma separated
      for (String e : text.split(",")) {
        if (!e.isBlank()) {
          endpoints.add(e.trim());
        }
      }
    } else if (listed != null) {
      throw new IllegalArgumentException("redis.endpoints is a list of redis:// URLs");
    }
    return new RedisTopology(kind, endpoints, r.getString("masterName"));
  }

  public boolean isCluster() {
    return kind == Kind.CLUSTER;
  }

  public boolean isStandalone() {
    return kind == Kind.STANDALONE;
  }

  /** The endpoints to connect to: the configured ones, else {@code redisUrl} alone. */
  List<String> endpointsOr(String redisUrl) {
    return endpoints.isEmpty() && redisUrl != null ? List.of(redisUrl) : endpoints;
  }
}
