package dev.ratchet.runtime;

import dev.ratchet.runtime.impl.CanonicalJson;

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
    String digest = CanonicalJson.sha256Hex(sessionId + '\u0000' + turnId + '\u0000' + index);
    return new CallId("call_" + digest.substring(0, 24));
  }

  @Override
  public String toString() {
    return value;
  }
}
