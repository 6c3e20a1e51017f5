package dev.ratchet.runtime.journal;

/** The journal steps a call's transitions write; each is one atomic, fenced step (its Redis script's name). */
public enum JournalStep {
  SUBMIT_TURN("submit_turn"),
  CALL_STARTED("call_started"),
  CALLS_COMPLETED("calls_completed"),
  APPROVAL_REQUESTED("approval_requested"),
  APPROVAL_DECIDED("approval_decided"),
  APPEND_EVENT("append_event"),
  CALL_RECONCILED("call_reconciled"),
  TURN_COMPLETED("turn_completed");

  private final String wireName;

  JournalStep(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  @Override
  public String toString() {
    return wireName;
  }
}
