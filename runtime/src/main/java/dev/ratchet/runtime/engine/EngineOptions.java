package dev.ratchet.runtime.engine;

import io.vertx.core.json.JsonObject;

/**
 * Limits and timings of the session engine.
 *
 * @param maxResultBytes     a result larger than this fails a read and is truncated for a write
 * @param approvalTimeoutMillis how long an approval request stays open; 0 means until decided
 * @param journalRetryMillis how long a step keeps retrying an unreachable journal before its turn fails
 * @param maxCallsPerTurn    a turn with more calls is refused whole, before anything is journaled
 * @param maxArgumentsBytes  a turn with a call whose arguments encode to more JSON bytes than this is
 *                           refused whole, before anything is journaled
 */
public record EngineOptions(int maxResultBytes, long approvalTimeoutMillis, long journalRetryMillis,
                            int maxCallsPerTurn, int maxArgumentsBytes) {

  public static final EngineOptions DEFAULT = new EngineOptions(256 * 1024, 0, 300_000, 64, 256 * 1024);

  public EngineOptions {
    if (maxCallsPerTurn < 1) {
      throw new IllegalArgumentException("engine.maxCallsPerTurn must be at least 1");
    }
    if (maxArgumentsBytes < 2) {
      throw new IllegalArgumentException("engine.maxArgumentsBytes must be at least 2 (the bytes of {})");
    }
  }

  public static EngineOptions fromJson(JsonObject json) {
    JsonObject j = json == null ? new JsonObject() : json;
    return new EngineOptions(
        j.getInteger("maxResultBytes", DEFAULT.maxResultBytes),
        j.getLong("approvalTimeoutMillis", DEFAULT.approvalTimeoutMillis),
        j.getLong("journalRetryMillis", DEFAULT.journalRetryMillis),
        j.getInteger("maxCallsPerTurn", DEFAULT.maxCallsPerTurn),
        j.getInteger("maxArgumentsBytes", DEFAULT.maxArgumentsBytes));
  }

  public EngineOptions withApprovalTimeoutMillis(long millis) {
    return new EngineOptions(maxResultBytes, millis, journalRetryMillis, maxCallsPerTurn, maxArgumentsBytes);
  }

  public EngineOptions withMaxResultBytes(int bytes) {
    return new EngineOptions(bytes, approvalTimeoutMillis, journalRetryMillis, maxCallsPerTurn, maxArgumentsBytes);
  }

  public EngineOptions withJournalRetryMillis(long millis) {
    return new EngineOptions(maxResultBytes, approvalTimeoutMillis, millis, maxCallsPerTurn, maxArgumentsBytes);
  }

  public EngineOptions withMaxCallsPerTurn(int calls) {
    return new EngineOptions(maxResultBytes, approvalTimeoutMillis, journalRetryMillis, calls, maxArgumentsBytes);
  }

  public EngineOptions withMaxArgumentsBytes(int bytes) {
    return new EngineOptions(maxResultBytes, approvalTimeoutMillis, journalRetryMillis, maxCallsPerTurn, bytes);
  }
}
