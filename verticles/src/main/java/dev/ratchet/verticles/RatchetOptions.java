package dev.ratchet.verticles;

import dev.ratchet.runtime.engine.EngineOptions;
import dev.ratchet.runtime.journal.JournalOptions;
import dev.ratchet.runtime.journal.RedisTopology;
import dev.ratchet.runtime.retention.ArchiveSink;
import dev.ratchet.runtime.retention.RetentionOptions;
import io.vertx.core.json.JsonObject;

import java.util.UUID;

/** Settings of an embedded Ratchet; {@link #fromConfig(JsonObject)} reads the {@code conf/ratchet.json} layout. */
public final class RatchetOptions {

  private String redisUrl;
  private String keyPrefix = JournalOptions.DEFAULT_PREFIX;
  private int maxPoolSize = 16;
  private int maxWaiting = 100_000;
  private RedisTopology redisTopology = RedisTopology.STANDALONE;
  private int waitReplicas;
  private long waitTimeoutMillis = JournalOptions.DEFAULT_WAIT_TIMEOUT_MILLIS;
  private EngineOptions engine = EngineOptions.DEFAULT;
  private long sessionIdleMillis = 60_000;
  private long leaveTimeoutMillis = 30_000;
  private boolean deferReady;
  private String nodeId = "node-" + UUID.randomUUID().toString().substring(0, 8);
  private RetentionOptions retention = RetentionOptions.DISABLED;
  private ArchiveSink archiveSink;

  public static RatchetOptions create() {
    return new RatchetOptions();
  }

  public static RatchetOptions fromConfig(JsonObject config) {
    RatchetOptions o = new RatchetOptions();
    JsonObject redis = config.getJsonObject("redis", new JsonObject());
    o.redisUrl = redis.getString("url");
    o.redisTopology = RedisTopology.fromJson(redis);
    JsonObject journal = config.getJsonObject("journal", new JsonObject());
    o.waitReplicas = journal.getInteger("waitReplicas", o.waitReplicas);
    o.waitTimeoutMillis = journal.getLong("waitTimeoutMillis", o.waitTimeoutMillis);
    o.keyPrefix = journal.getString("keyPrefix", o.keyPrefix);
    o.maxPoolSize = journal.getInteger("maxPoolSize", o.maxPoolSize);
    o.maxWaiting = journal.getInteger("maxWaiting", o.maxWaiting);
    o.engine = EngineOptions.fromJson(config.getJsonObject("engine"));
    o.sessionIdleMillis = config.getJsonObject("sessions", new JsonObject()).getLong("idleTimeoutMillis",
        o.sessionIdleMillis);
    o.leaveTimeoutMillis = config.getJsonObject("cluster", new JsonObject()).getLong("leaveTimeoutMillis",
        o.leaveTimeoutMillis);
    o.retention = RetentionOptions.fromJson(config.getJsonObject("retention"));
    String node = config.getJsonObject("node", new JsonObject()).getString("id");
    if (node != null && !node.isBlank()) {
      o.nodeId = node;
    }
    return o;
  }

  public RatchetOptions redisUrl(String url) {
    this.redisUrl = url;
    return this;
  }

  /** A Redis Cluster or a Sentinel-managed master instead of one server ({@code redis.type}). */
  public RatchetOptions redisTopology(RedisTopology topology) {
    this.redisTopology = topology;
    return this;
  }

  /** Every step waits until {@code replicas} replicas hold it, for at most {@code timeoutMillis} ({@code journal.waitReplicas}). */
  public RatchetOptions waitReplicas(int replicas, long timeoutMillis) {
    this.waitReplicas = replicas;
    this.waitTimeoutMillis = timeoutMillis;
    return this;
  }

  public RatchetOptions keyPrefix(String prefix) {
    this.keyPrefix = prefix;
    return this;
  }

  public RatchetOptions engine(EngineOptions engine) {
    this.engine = engine;
    return this;
  }

  public RatchetOptions sessionIdleMillis(long millis) {
    this.sessionIdleMillis = millis;
    return this;
  }

  /**
   * In a cluster, how long {@code close()} waits for the sessions this member runs to park (every
   * call done or waiting for a decision) so that it can hand them over; those still busy then are
   * taken over as after a crash ({@code cluster.leaveTimeoutMillis}). 0 hands nothing over.
   */
  public RatchetOptions leaveTimeoutMillis(long millis) {
    this.leaveTimeoutMillis = millis;
    return this;
  }

  public long leaveTimeoutMillis() {
    return leaveTimeoutMillis;
  }

  /**
   * True: the node takes no session (and, in a cluster, joins no placement) until
   * {@link RatchetNode#markReady()}, so that an application registers its agents first. False, the
   * default: ready once deployed.
   */
  public RatchetOptions deferReady(boolean defer) {
    this.deferReady = defer;
    return this;
  }

  public boolean deferReady() {
    return deferReady;
  }

  public RatchetOptions nodeId(String nodeId) {
    this.nodeId = nodeId;
    return this;
  }

  public RatchetOptions maxPoolSize(int size) {
    this.maxPoolSize = size;
    return this;
  }

  /** Commands that may wait for a pooled Redis connection before the journal refuses more. */
  public RatchetOptions maxWaiting(int waiting) {
    this.maxWaiting = waiting;
    return this;
  }

  /** Retention: the sweeper, the default policy, tombstones and the default archive. */
  public RatchetOptions retention(RetentionOptions retention) {
    this.retention = retention;
    return this;
  }

  /** Where retention archives removed turns; null: JSON Lines files under {@code retention.archive.dir}. */
  public RatchetOptions archiveSink(ArchiveSink sink) {
    this.archiveSink = sink;
    return this;
  }

  public RetentionOptions retention() {
    return retention;
  }

  public ArchiveSink archiveSink() {
    return archiveSink;
  }

  public String redisUrl() {
    return redisUrl;
  }

  public String keyPrefix() {
    return keyPrefix;
  }

  public RedisTopology redisTopology() {
    return redisTopology;
  }

  public EngineOptions engine() {
    return engine;
  }

  public long sessionIdleMillis() {
    return sessionIdleMillis;
  }

  public String nodeId() {
    return nodeId;
  }

  public JournalOptions journalOptions() {
    return new JournalOptions(redisUrl, keyPrefix, maxPoolSize, maxWaiting, redisTopology, waitReplicas,
        waitTimeoutMillis);
  }
}
