package dev.ratchet.runtime;

import io.vertx.core.json.JsonObject;

/**
 * What a tool receives for one attempt. {@code deadline} is epoch milliseconds after which the
 * runtime stops waiting for the attempt.
 *
 * @param callerId the resource id of the session's caller, fixed when the session was created
 *     (from the authenticated API or the trusted Java API); null when the session has none. Tools
 *     that act for a tenant (caller-supplied connections) run as this caller and no one else.
 */
public record ToolInvocation(
    String sessionId,
    CallId callId,
    IdempotencyKey idempotencyKey,
    int attempt,
    JsonObject arguments,
    long deadline,
    String callerId) {

  /** An invocation for a session without a caller. */
  public ToolInvocation(String sessionId, CallId callId, IdempotencyKey idempotencyKey, int attempt,
                        JsonObject arguments, long deadline) {
    this(sessionId, callId, idempotencyKey, attempt, arguments, deadline, null);
  }

  public long remainingMillis() {
    return Math.max(0, deadline - System.currentTimeMillis());
  }
}
