package dev.ratchet.runtime;

import io.vertx.core.json.JsonObject;

/**
 * What a tool receives for one attempt. {@code deadline} is epoch milliseconds after which the
 * runtime stops waiting for the attempt.
 */
public record ToolInvocation(
    String sessionId,
    CallId callId,
    IdempotencyKey idempotencyKey,
    int attempt,
    JsonObject arguments,
    long deadline) {

  public long remainingMillis() {
    return Math.max(0, deadline - System.currentTimeMillis());
  }
}
