package dev.ratchet.runtime.journal;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Redis;

/**
 * How to reach the journal's Redis and how to name its keys. A distinct {@code keyPrefix} lets
 * several runtimes (or test classes) share one Redis server without seeing each other.
 * {@code topology} says whether that Redis is one server, a Cluster or a Sentinel-managed master;
 * {@code waitReplicas} above 0 makes every step wait (Redis {@code WAIT}) until that many replicas
 * hold it, for at most {@code waitTimeoutMillis}.
 */
public record JournalOptions(String redisUrl, String keyPrefix, int maxPoolSize, int maxWaiting, RedisTopology topology,
                             int waitReplicas, long waitTimeoutMillis) {

  public static final String DEFAULT_PREFIX = "ratchet";
  /** How long a step waits for its replicas unless configured otherwise. */
  public static final long DEFAULT_WAIT_TIMEOUT_MILLIS = 1_000;

  public JournalOptions {
    topology = topology == null ? RedisTopology.STANDALONE : topology;
    if (redisUrl == null || redisUrl.isBlank()) {
      if (topology.isStandalone() || topology.endpoints().isEmpty()) {
        throw new IllegalArgumentException("redis url is required");
      }
      redisUrl = topology.endpoints().get(0);
    }
    if (keyPrefix == null || !keyPrefix.matches("[A-Za-z0-9_.:-]{1,64}")) {
      throw new IllegalArgumentException("key prefix must be 1-64 of [A-Za-z0-9_.:-]");
    }
    if (waitReplicas < 0) {
      throw new IllegalArgumentException("journal.waitReplicas must be 0 or more");
    }
    if (waitReplicas > 0 && waitTimeoutMillis <= 0) {
      // WAIT with a timeout of 0 blocks for ever
      throw new IllegalArgumentException("journal.waitTimeoutMillis must be above 0");
    }
  }

  public JournalOptions(String redisUrl, String keyPrefix, int maxPoolSize, int maxWaiting) {
    this(redisUrl, keyPrefix, maxPoolSize, maxWaiting, RedisTopology.STANDALONE, 0, DEFAULT_WAIT_TIMEOUT_MILLIS);
  }

  public static JournalOptions of(String redisUrl) {
    return new JournalOptions(redisUrl, DEFAULT_PREFIX, 16, 100_000);
  }

  public JournalOptions withKeyPrefix(String prefix) {
    return new JournalOptions(redisUrl, prefix, maxPoolSize, maxWaiting, topology, waitReplicas, waitTimeoutMillis);
  }

  public JournalOptions withMaxPoolSize(int size) {
    return new JournalOptions(redisUrl, keyPrefix, size, maxWaiting, topology, waitReplicas, waitTimeoutMillis);
  }

  public JournalOptions withMaxWaiting(int waiting) {
    return new JournalOptions(redisUrl, keyPrefix, maxPoolSize, waiting, topology, waitReplicas, waitTimeoutMillis);
  }

  /** The same journal on another deployment: a Cluster or a Sentinel-managed master. */
  public JournalOptions withTopology(RedisTopology topology) {
    return new JournalOptions(redisUrl, keyPrefix, maxPoolSize, maxWaiting, topology, waitReplicas, waitTimeoutMillis);
  }

  /** Every step waits until {@code replicas} replicas hold it, for at most {@code timeoutMillis}. */
  public JournalOptions withWaitReplicas(int replicas, long timeoutMillis) {
    return new JournalOptions(redisUrl, keyPrefix, maxPoolSize, maxWaiting, topology, replicas, timeoutMillis);
  }

  /**
   * A pooled Vert.x Redis client for the deployment these options name (one server, a Cluster, a
   * Sentinel-managed master), for what lives beside the journal, such as the dashboard's log-ins.
   */
  public Redis redisClient(Vertx vertx) {
    return RedisClients.pooledOnly(vertx, this);
  }

  public static JournalOptions fromJson(String redisUrl, JsonObject journal) {
    return fromConfig(redisUrl, null, journal);
  }

  /** The journal's options from the {@code redis} and {@code journal} sections of the configuration. */
  public static JournalOptions fromConfig(String redisUrl, JsonObject redis, JsonObject journal) {
    JsonObject j = journal == null ? new JsonObject() : journal;
    RedisTopology topology = RedisTopology.fromJson(redis);
    String url = redisUrl != null ? redisUrl : topology.endpoints().isEmpty() ? null : topology.endpoints().get(0);
    return new JournalOptions(url, j.getString("keyPrefix", DEFAULT_PREFIX), j.getInteger("maxPoolSize", 16),
        j.getInteger("maxWaiting", 100_000), topology, j.getInteger("waitReplicas", 0),
        j.getLong("waitTimeoutMillis", DEFAULT_WAIT_TIMEOUT_MILLIS));
  }
}
