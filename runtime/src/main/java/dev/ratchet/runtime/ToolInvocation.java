package dev.ratchet.runtime;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.function.Supplier;

/**
 * What a tool receives for one attempt. {@code deadline} is epoch milliseconds after which the
 * runtime stops waiting for the attempt.
 *
 * @param callerId the resource id of the session's caller, fixed when the session was created
 *     (from the authenticated API or the trusted Java API); null when the session has none. Tools
 *     that act for a tenant (caller-supplied connections) run as this caller and no one else.
 * @param beforeSend what {@link #sending()} runs; null when nothing needs to happen first
 * @param traceparent the W3C trace context of the call's span, which a connector sends to the
 *     provider as its {@code traceparent} header (docs/OBSERVABILITY.md); null when nothing is traced
 * @param clock the clock {@code deadline} is on, the session's; null for the wall clock
 */
public record ToolInvocation(
    String sessionId,
    CallId callId,
    IdempotencyKey idempotencyKey,
    int attempt,
    JsonObject arguments,
    long deadline,
    String callerId,
    Supplier<Future<Void>> beforeSend,
    String traceparent,
    RatchetClock clock) {

  public ToolInvocation(String sessionId, CallId callId, IdempotencyKey idempotencyKey, int attempt,
                        JsonObject arguments, long deadline, String callerId, Supplier<Future<Void>> beforeSend,
                        String traceparent) {
    this(sessionId, callId, idempotencyKey, attempt, arguments, deadline, callerId, beforeSend, traceparent, null);
  }

  public ToolInvocation(String sessionId, CallId callId, IdempotencyKey idempotencyKey, int attempt,
                        JsonObject arguments, long deadline, String callerId, Supplier<Future<Void>> beforeSend) {
    this(sessionId, callId, idempotencyKey, attempt, arguments, deadline, callerId, beforeSend, null);
  }

  public ToolInvocation(String sessionId, CallId callId, IdempotencyKey idempotencyKey, int attempt,
                        JsonObject arguments, long deadline, String callerId) {
    this(sessionId, callId, idempotencyKey, attempt, arguments, deadline, callerId, null);
  }

  /** An invocation for a session without a caller. */
  public ToolInvocation(String sessionId, CallId callId, IdempotencyKey idempotencyKey, int attempt,
                        JsonObject arguments, long deadline) {
    this(sessionId, callId, idempotencyKey, attempt, arguments, deadline, null);
  }

  /**
   * For a tool that {@link Tool#announcesSending() announces sending}: call once a connection is in
   * hand and the request is about to be written, and write it only if this succeeds. A failure
   * means the request must not be sent (the session moved to another node, or the attempt already
   * ended); end the attempt with {@link ToolNotSentException} then.
   */
  public Future<Void> sending() {
    return beforeSend == null ? Future.succeededFuture() : beforeSend.get();
  }

  /** How long the runtime still waits for this attempt, on the session's clock. */
  public long remainingMillis() {
    return Math.max(0, deadline - (clock == null ? System.currentTimeMillis() : clock.millis()));
  }
}
