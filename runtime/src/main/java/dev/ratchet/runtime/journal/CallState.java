package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ApprovalRecord;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.CallStatus;

/**
 * What the journal holds about one call: its terminal record if it has one, whether an attempt was
 * started, and its approval.
 *
 * @param state where the call stands; stored as its {@link CallStatus#wireName()}
 * @param startedAt when its latest attempt was journaled as started, 0 when none was
 */
public record CallState(String callId, CallStatus state, CallResult record, int attempts, ApprovalRecord approval,
                        String argumentsHash, long expiresAt, long startedAt) {

  public CallState(String callId, CallStatus state, CallResult record, int attempts, ApprovalRecord approval,
                   String argumentsHash, long expiresAt) {
    this(callId, state, record, attempts, approval, argumentsHash, expiresAt, 0);
  }

  public boolean isDone() {
    return record != null;
  }

  public boolean wasStarted() {
    return state == CallStatus.STARTED;
  }

  public static CallState fresh(String callId) {
    return new CallState(callId, CallStatus.NEW, null, 0, null, null, 0);
  }
}
