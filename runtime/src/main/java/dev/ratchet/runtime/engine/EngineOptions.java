package dev.ratchet.runtime.engine;

import io.vertx.core.json.JsonObject;

/**
 * Limits and timings of the session engine.
 *
 * @param maxResultBytes     a result larger than this fails a read and is truncated for a write
 * @param approvalTimeoutMillis how long an approval request stays open; 0 means until decided
 * @param journalRetryMillis how long a step keeps retrying an unreachable journal before its turn fails
 */
public record EngineOptions(int maxResultBytes, long approvalTimeoutMillis, long journalRetryMillis) {

  public static final EngineOptions DEFAULT = new EngineOptions(256 * 1024, 0, 300_000);

  public static EngineOptions fromJson(JsonObject json) {
    JsonObject j = json == null ? new JsonObject() : json;
    return new EngineOptions(
        j.getInteger("maxResultBytes", DEFAULT.maxResultBytes),
        j.getLong("approvalTimeoutMillis", DEFAULT.approvalTimeoutMillis),
        j.getLong("journalRetryMillis", DEFAULT.journalRetryMillis));
  }

  public EngineOptions withApprovalTimeoutMillis(long millis) {
    return new EngineOptions(maxResultBytes, millis, journalRetryMillis);
  }

  public EngineOptions withMaxResultBytes(int bytes) {
    return new EngineOptions(bytes, approvalTimeoutMillis, journalRetryMillis);
  }

  public EngineOptions withJournalRetryMillis(long millis) {
    return new EngineOptions(maxResultBytes, approvalTimeoutMillis, millis);
  }
}
