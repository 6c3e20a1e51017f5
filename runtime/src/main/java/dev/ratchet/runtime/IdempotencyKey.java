package dev.ratchet.runtime;

import dev.ratchet.runtime.impl.CanonicalJson;
import dev.ratchet.runtime.impl.Sha256;
import io.vertx.core.json.JsonObject;

import java.util.Objects;

/**
 * The key sent to providers that honour one, derived from (call id, canonical arguments): the
 * same for every attempt of a call.
 */
public record IdempotencyKey(String value) {

  public IdempotencyKey {
    Objects.requireNonNull(value, "value");
  }

  public static IdempotencyKey of(CallId callId, JsonObject arguments) {
    return new IdempotencyKey(Sha256.prefixedHex("rk_", 32, callId.value(), CanonicalJson.encode(arguments)));
  }

  /** The hash of canonical arguments an approver was shown. */
  public static String argumentsHash(JsonObject arguments) {
    return CanonicalJson.sha256Hex(CanonicalJson.encode(arguments == null ? new JsonObject() : arguments));
  }

  @Override
  public String toString() {
    return value;
  }
}
