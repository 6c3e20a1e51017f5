package dev.ratchet.connectors.provider;

import dev.ratchet.runtime.WireNames;

/**
 * Whose connections a provider's tools run with. {@code PER_AUTHOR} uses the agent author's
 * identity; {@code CALLER_SUPPLIED} uses the resource id of the session's caller, which is set when
 * the session is created and trusted only from the authenticated API.
 */
public enum ConnectionScope {
  PER_AUTHOR,
  CALLER_SUPPLIED;

  private final String wireName = WireNames.of(this, '-');

  public String wireName() {
    return wireName;
  }

  public static ConnectionScope fromWireName(String name) {
    return WireNames.parse(values(), name, ConnectionScope::wireName, () -> "unknown connection scope '" + name
        + "' (expected per-author or caller-supplied)");
  }

  @Override
  public String toString() {
    return wireName;
  }
}
