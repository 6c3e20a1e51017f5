package dev.ratchet.runtime;

/** The terminal outcome of a call. */
public enum Outcome {
  SUCCEEDED("succeeded"),
  FAILED("failed"),
  /** A write may or may not have taken effect at the provider. */
  OUTCOME_UNKNOWN("outcome_unknown");

  private final String wireName;

  Outcome(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  public static Outcome fromWireName(String name) {
    for (Outcome o : values()) {
      if (o.wireName.equals(name)) {
        return o;
      }
    }
    throw new IllegalArgumentException("unknown outcome '" + name + "'");
  }

  @Override
  public String toString() {
    return wireName;
  }
}
