package dev.ratchet.runtime.journal;

import io.vertx.core.json.JsonObject;

/**
 * How to reach the journal's Redis and how to name its keys. A distinct {@code keyPrefix} lets
 * several runtimes (or test classes) share one Redis server without seeing each other.
 */
public record JournalOptions(String redisUrl, String keyPrefix, int maxPoolSize, int maxWaiting) {

  public static final String DEFAULT_PREFIX = "ratchet";

  public JournalOptions {
    if (redisUrl == null || redisUrl.isBlank()) {
      throw new IllegalArgumentException("redis url is required");
    }
    if (keyPrefix == null || !keyPrefix.matches("[A-Za-z0-9_.:-]{1,64}")) {
      throw new IllegalArgumentException("key prefix must be 1-64 of [A-Za-z0-9_.:-]");
    }
  }

  public static JournalOptions of(String redisUrl) {
    return new JournalOptions(redisUrl, DEFAULT_PREFIX, 16, 100_000);
  }

  public JournalOptions withKeyPrefix(String prefix) {
    return new JournalOptions(redisUrl, prefix, maxPoolSize, maxWaiting);
  }

  public JournalOptions withMaxPoolSize(int size) {
    return new JournalOptions(redisUrl, keyPrefix, size, maxWaiting);
  }

  public JournalOptions withMaxWaiting(int waiting) {
    return new JournalOptions(redisUrl, keyPrefix, maxPoolSize, waiting);
  }

  public static JournalOptions fromJson(String redisUrl, JsonObject journal) {
    JsonObject j = journal == null ? new JsonObject() : journal;
    return new JournalOptions(redisUrl, j.getString("keyPrefix", DEFAULT_PREFIX), j.getInteger("maxPoolSize", 16),
        j.getInteger("maxWaiting", 100_000));
  }
}
