package dev.ratchet.runtime;

import dev.ratchet.runtime.impl.Sha256;

import java.util.Objects;

/**
 * Stable identity of a call, derived only from (session id, turn id, call index): every attempt,
 * every node and every restart computes the same value.
 */
public record CallId(String value) {

  public CallId {
    Objects.requireNonNull(value, "value");
  }

  public static CallId of(String sessionId, String turnId, int index) {
    return new CallId(Sha256.prefixedHex("call_", 24, sessionId, turnId, Integer.toString(index)));
  }

  @Override
  public String toString() {
    return value;
  }
}
