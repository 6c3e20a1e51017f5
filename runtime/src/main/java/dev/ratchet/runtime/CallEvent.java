package dev.ratchet.runtime;

/** What happens to a call: the events of the call state machine ({@code CallTransitions}). */
public enum CallEvent {
  /** Its turn is journaled (rule 1). */
  SUBMITTED("submitted"),
  /** Unknown tool or invalid arguments (rule 2): it ends failed, nothing sent. */
  REFUSED("refused"),
  /** An earlier write of its turn did not succeed (rule 5): it ends failed and skipped. */
  SKIPPED("skipped"),
  /** Its turn in the queue came and it needs a decision (rule 4). */
  APPROVAL_REQUESTED("approval requested"),
  /** A person approved it for the arguments shown (rule 8). */
  APPROVED("approved"),
  /** A person rejected it, or its approval expired: it ends failed, never run. */
  REJECTED("rejected / expired"),
  /** An attempt is about to send its request (J2, J8). */
  ATTEMPT_STARTED("attempt started"),
  /** An attempt failed with budget left; the next one follows (read, idempotent write). */
  ATTEMPT_FAILED("attempt failed, retry"),
  /** An attempt, or a lookup at recovery, gave the call its final outcome. */
  COMPLETED("completed"),
  /** Recovery found a started write without an outcome and did not resend it. */
  RECOVERED_UNKNOWN("recovery finds no outcome"),
  /** A person recorded what became of an {@code outcome_unknown} call. */
  RECONCILED("reconciled");

  private final String label;

  CallEvent(String label) {
    this.label = label;
  }

  /** How the event reads in the docs' diagram. */
  public String label() {
    return label;
  }
}
