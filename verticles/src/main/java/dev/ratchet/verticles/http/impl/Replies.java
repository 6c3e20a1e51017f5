package dev.ratchet.verticles.http.impl;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.verticles.impl.ErrorCodes;
import io.vertx.core.AsyncResult;
import io.vertx.core.Handler;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** JSON answers and errors in the one shape every endpoint uses: {@code {"code", "message"}}. */
public final class Replies {

  private static final Logger LOG = LoggerFactory.getLogger(Replies.class);
  /** When to ask again after {@code NOT_READY}: a starting member loads its agents within seconds. */
  public static final String RETRY_AFTER_SECONDS = "1";

  private Replies() {
  }

  public static void json(RoutingContext ctx, int status, Object body) {
    if (ctx.response().ended()) {
      return;
    }
    ctx.response().setStatusCode(status)
        .putHeader("Content-Type", "application/json; charset=utf-8")
        .putHeader("Cache-Control", "no-store")
        .end(body instanceof JsonObject ? ((JsonObject) body).encode() : io.vertx.core.json.Json.encode(body));
  }

  /** What answers a result: 200 with it as JSON, or the failure as {@link #fail} answers it. */
  public static <T> Handler<AsyncResult<T>> ok(RoutingContext ctx) {
    return ar -> {
      if (ar.failed()) {
        fail(ctx, ar.cause());
      } else {
        json(ctx, 200, ar.result());
      }
    };
  }

  /** Answers {@code code} with its HTTP status. */
  public static void error(RoutingContext ctx, ErrorCode code, String message) {
    if (code == ErrorCode.NOT_READY && !ctx.response().headWritten()) {
      ctx.response().putHeader("Retry-After", RETRY_AFTER_SECONDS);
    }
    json(ctx, code.httpStatus(), new JsonObject().put("code", code.wireName()).put("message", message));
  }

  /** Maps a failure to its status; internal errors are logged and answered without details. */
  public static void fail(RoutingContext ctx, Throwable err) {
    ErrorCode code = ErrorCodes.errorCode(err);
    if (code.httpStatus() == 500) {
      LOG.error("{} {} failed", ctx.request().method(), ctx.request().path(), err);
      error(ctx, ErrorCode.INTERNAL, "the request failed; see the server log");
      return;
    }
    if (code == ErrorCode.JOURNAL_UNAVAILABLE) {
      // the journal's message names the Redis address; the caller only needs to know it is down
      LOG.warn("{} {}: {}", ctx.request().method(), ctx.request().path(), err.getMessage());
      error(ctx, ErrorCode.JOURNAL_UNAVAILABLE, "the journal is unavailable; try again later");
      return;
    }
    error(ctx, code, err.getMessage());
  }

  public static RatchetException invalid(String message) {
    return new RatchetException(ErrorCode.INVALID_REQUEST, message);
  }

  /** The non-blank string {@code field} of {@code body}; null when it is absent and not {@code required}. */
  public static String string(JsonObject body, String field, boolean required) {
    Object v = body.getValue(field);
    if (v == null && !required) {
      return null;
    }
    if (!(v instanceof String) || ((String) v).isBlank()) {
      throw invalid("'" + field + "' must be a non-empty string");
    }
    return (String) v;
  }

  /**
   * Refuses a body that tries to name the session's caller: over HTTP the caller is always the
   * authenticated principal's, and a silently ignored field would let a client believe otherwise.
   */
  public static void refuseCallerField(JsonObject body) {
    for (String field : new String[] {"callerId", "caller", "resourceId"}) {
      if (body.containsKey(field)) {
        throw invalid("'" + field + "' cannot be set over HTTP: a session's caller is the authenticated user or"
            + " token (its configured resourceId, else its name)");
      }
    }
  }

  /** The request body as a JSON object, or a 400-coded exception naming the problem. */
  public static JsonObject body(RoutingContext ctx) {
    try {
      Object parsed = ctx.body().asJsonObject();
      if (parsed == null) {
        throw invalid("the request body must be a JSON object");
      }
      return (JsonObject) parsed;
    } catch (io.vertx.core.json.DecodeException | ClassCastException e) {
      throw invalid("the request body is not valid JSON");
    }
  }
}
