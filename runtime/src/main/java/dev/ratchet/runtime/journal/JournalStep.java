package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.WireNames;

/** The journal steps a call's transitions write; each is one atomic, fenced step (its Redis script's name). */
public enum JournalStep {
  SUBMIT_TURN,
  CALL_STARTED,
  CALLS_COMPLETED,
  APPROVAL_REQUESTED,
  APPROVAL_DECIDED,
  APPEND_EVENT,
  CALL_RECONCILED,
  TURN_COMPLETED;

  private final String wireName = WireNames.of(this, '_');

  public String wireName() {
    return wireName;
  }

  @Override
  public String toString() {
    return wireName;
  }
}
