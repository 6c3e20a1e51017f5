package dev.ratchet.runtime;

/** The terminal outcome of a call. */
public enum Outcome {
  SUCCEEDED,
  FAILED,
  /** A write may or may not have taken effect at the provider. */
  OUTCOME_UNKNOWN;

  private final String wireName = WireNames.of(this, '_');

  public String wireName() {
    return wireName;
  }

  public static Outcome fromWireName(String name) {
    return WireNames.parse(values(), name, Outcome::wireName, () -> "unknown outcome '" + name + "'");
  }

  @Override
  public String toString() {
    return wireName;
  }
}
