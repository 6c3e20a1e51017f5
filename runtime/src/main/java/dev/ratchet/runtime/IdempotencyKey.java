package dev.ratchet.runtime;

import dev.ratchet.runtime.impl.CanonicalJson;
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
    String digest = CanonicalJson.sha256Hex(callId.value() + '\u0000' + CanonicalJson.encode(arguments));
    return new IdempotencyKey("rk_" + digest.substring(0, 32));
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
