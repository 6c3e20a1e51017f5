package dev.ratchet.verticles.impl.cluster;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.RatchetException;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;

/**
 * How an error crosses the clustered event bus between the node that took a request and the node
 * that owns its session: a {@link RatchetException} keeps its code and message; anything else
 * arrives as {@code INTERNAL}, and a node that does not answer as {@code NODE_UNAVAILABLE}.
 */
final class Forwarded {

  static final int FAILURE = 500;

  private Forwarded() {
  }

  static JsonObject encode(Throwable err) {
    ErrorCode code = err instanceof RatchetException r ? r.errorCode() : ErrorCode.INTERNAL;
    return new JsonObject().put("code", code.name()).put("message", String.valueOf(err.getMessage()));
  }

  static RatchetException decode(JsonObject body) {
    return new RatchetException(ErrorCode.valueOf(body.getString("code")), body.getString("message"));
  }

  static void fail(Message<?> msg, Throwable err) {
    msg.fail(FAILURE, encode(err).encode());
  }

  /** The error a forwarded request failed with, as the node that owns the session said it. */
  static Throwable error(Throwable err, String node) {
    if (err instanceof ReplyException reply && reply.failureCode() == FAILURE) {
      try {
        return decode(new JsonObject(reply.getMessage()));
      } catch (RuntimeException e) {
        // not one of ours: said as it came
      }
    }
    return new RatchetException(ErrorCode.NODE_UNAVAILABLE, "the node that owns this session (" + node
        + ") did not answer: " + err.getMessage());
  }
}
