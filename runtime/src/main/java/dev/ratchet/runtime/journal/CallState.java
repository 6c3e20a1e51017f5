package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ApprovalRecord;
import dev.ratchet.runtime.CallResult;

/**
 * What the journal holds about one call: its terminal record if it has one, whether an attempt was
 * started, and its approval.
 *
 * @param state {@code new}, {@code started}, {@code awaiting_approval} or {@code done}
 */
public record CallState(String callId, String state, CallResult record, int attempts, ApprovalRecord approval,
                        String argumentsHash, long expiresAt) {

  public boolean isDone() {
    return record != null;
  }

  public boolean wasStarted() {
    return "started".equals(state);
  }

  public static CallState fresh(String callId) {
    return new CallState(callId, "new", null, 0, null, null, 0);
  }
}
