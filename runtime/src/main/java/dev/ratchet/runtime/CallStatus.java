package dev.ratchet.runtime;

/**
 * Where a call stands in its turn (docs/ARCHITECTURE.md, "The states of a call"). The journal stores
 * the {@link #wireName()}; {@code CallTransitions} says which event moves a call from one to another.
 */
public enum CallStatus {
  /** Journaled with its turn, not yet attempted (or approved and not yet attempted). */
  NEW,
  /** An attempt was journaled as about to send its request (J2); the call has no outcome yet. */
  STARTED,
  /** Waits for a person's decision (rule 4, J5). */
  AWAITING_APPROVAL,
  /** Has its terminal outcome (J1). */
  DONE;

  private final String wireName = WireNames.of(this, '_');

  public String wireName() {
    return wireName;
  }

  /** The status stored as {@code name}; a call with no stored status is {@link #NEW}. */
  public static CallStatus fromWireName(String name) {
    if (name == null || name.isEmpty()) {
      return NEW;
    }
    return WireNames.parse(values(), name, CallStatus::wireName, () -> "unknown call state '" + name + "'");
  }

  @Override
  public String toString() {
    return wireName;
  }
}
