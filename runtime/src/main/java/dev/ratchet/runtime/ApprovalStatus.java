package dev.ratchet.runtime;

/**
 * The state of a call's approval (rule 8): pending until decided once; expiry fails closed. The
 * journal and {@link ApprovalRecord#status()} carry the {@link #wireName()}.
 */
public enum ApprovalStatus {
  PENDING,
  APPROVED,
  REJECTED,
  EXPIRED;

  private final String wireName = WireNames.of(this, '_');

  public String wireName() {
    return wireName;
  }

  public boolean isDecided() {
    return this != PENDING;
  }

  /**
   * The status a decision moves this one to: only a pending approval is decided, and only once.
   *
   * @throws IllegalStateException naming both states when the move is not in the table
   */
  public ApprovalStatus decide(ApprovalStatus to) {
    if (this != PENDING || to == PENDING) {
      throw new IllegalStateException("an approval in state " + this + " cannot become " + to);
    }
    return to;
  }

  public static ApprovalStatus fromWireName(String name) {
    return WireNames.parse(values(), name, ApprovalStatus::wireName, () -> "unknown approval status '" + name + "'");
  }

  @Override
  public String toString() {
    return wireName;
  }
}
