package dev.ratchet.connectors.provider;

/**
 * Whose connections a provider's tools run with. {@code PER_AUTHOR} uses the agent author's
 * identity; {@code CALLER_SUPPLIED} uses the resource id of the session's caller, which is set when
 * the session is created and trusted only from the authenticated API.
 */
public enum ConnectionScope {
  PER_AUTHOR("per-author"),
  CALLER_SUPPLIED("caller-supplied");

  private final String wireName;

  ConnectionScope(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  public static ConnectionScope fromWireName(String name) {
    for (ConnectionScope s : values()) {
      if (s.wireName.equals(name)) {
        return s;
      }
    }
    throw new IllegalArgumentException("unknown connection scope '" + name + "' (expected per-author or caller-supplied)");
  }

  @Override
  public String toString() {
    return wireName;
  }
}
