package dev.ratchet.runtime.journal;

import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisClientType;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.RedisReplicas;
import io.vertx.redis.client.RedisRole;

/**
 * The Vert.x Redis client for a journal's {@link RedisTopology}. One server gets
 * {@link EventLoopRedis} (a connection per event loop, a pool for the rest); a Cluster and a
 * Sentinel-managed master get Vert.x's own cluster and sentinel clients, whose connections follow
 * the topology (a slot's master, the master the sentinels name), which one connection held per
 * event loop would not after a failover: the cluster client through one shared cluster connection
 * ({@link ClusterConnectionRedis}), the sentinel client pooled.
 */
final class RedisClients {

  /** Most commands in flight on one connection. */
  static final int MAX_PIPELINED = 8 * 1024;

  private RedisClients() {
  }

  static Redis create(Vertx vertx, JournalOptions options) {
    RedisTopology topology = options.topology();
    switch (topology.kind()) {
      case CLUSTER:
        return new ClusterConnectionRedis(Redis.createClient(vertx, pooled(options)
            .setType(RedisClientType.CLUSTER)
            .setEndpoints(topology.endpointsOr(options.redisUrl()))
            // every command, reads included, goes to the slot's master: a replica may lag behind a step
            .setUseReplicas(RedisReplicas.NEVER)));
      case SENTINEL:
        return Redis.createClient(vertx, pooled(options)
            .setType(RedisClientType.SENTINEL)
            .setEndpoints(topology.endpointsOr(options.redisUrl()))
            .setMasterName(topology.masterName())
            .setRole(RedisRole.MASTER));
      default:
        return standalone(vertx, options);
    }
  }

  /** As {@link #create}, with one server reached through the pool alone. */
  static Redis pooledOnly(Vertx vertx, JournalOptions options) {
    return options.topology().isStandalone()
        ? Redis.createClient(vertx, pooled(options).setConnectionString(options.redisUrl())) : create(vertx, options);
  }

  private static RedisOptions pooled(JournalOptions options) {
    return new RedisOptions()
        .setMaxPoolSize(options.maxPoolSize())
        .setMaxPoolWaiting(options.maxWaiting())
        // commands in flight on one connection; each pooled connection holds an array of this size
        // for as long as it lives, so it is sized for the largest pipeline, not for the pool's waiters
        .setMaxWaitingHandlers(Math.min(options.maxWaiting(), MAX_PIPELINED));
  }

  private static Redis standalone(Vertx vertx, JournalOptions options) {
    Redis pool = Redis.createClient(vertx, pooled(options).setConnectionString(options.redisUrl()));
    if (Boolean.getBoolean("ratchet.journal.pooledOnly")) {
      return pool;
    }
    Redis connector = Redis.createClient(vertx, pooled(options)
        .setConnectionString(options.redisUrl())
        .setMaxPoolSize(1024));
    return new EventLoopRedis(vertx, pool, connector, Math.min(options.maxWaiting(), MAX_PIPELINED), options.redisUrl());
  }
}
