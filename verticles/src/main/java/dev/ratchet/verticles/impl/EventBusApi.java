package dev.ratchet.verticles.impl;

import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.journal.DecisionAnswer;
import dev.ratchet.verticles.Addresses;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * Ratchet's event-bus protocol. The event bus is in-process (or the application's own cluster), so
 * it is trusted like the Java API: a submit or message may name the session's {@code callerId}, and
 * no address applies the HTTP API's tenants (docs/HTTP-API.md): never bridge it to untrusted clients.
 * Every malformed message gets an error reply with a status code
 * and a {@code CODE: message} text; nothing here lets a bad message stop the verticle.
 */
final class EventBusApi extends VerticleBase {

  private final RatchetImpl ratchet;

  EventBusApi(RatchetImpl ratchet) {
    this.ratchet = ratchet;
  }

  @Override
  public Future<?> start() {
    return Future.all(List.of(
        vertx.eventBus().<Object>consumer(Addresses.SUBMIT, this::submit).completion(),
        vertx.eventBus().<Object>consumer(Addresses.DECIDE, this::decide).completion(),
        vertx.eventBus().<Object>consumer(Addresses.PENDING, this::pending).completion(),
        vertx.eventBus().<Object>consumer(Addresses.RESULTS, this::results).completion(),
        vertx.eventBus().<Object>consumer(Addresses.MESSAGES_SEND, this::message).completion(),
        vertx.eventBus().<Object>consumer(Addresses.CONVERSATION, this::conversation).completion()));
  }

  /** A user message for the agent loop: acknowledged once journaled; the reply goes to replyAddress. */
  private void message(Message<Object> msg) {
    JsonObject body = body(msg);
    if (body == null) {
      return;
    }
    String agent;
    String sessionId;
    String text;
    String messageId;
    String replyAddress;
    String callerId;
    try {
      agent = string(body, "agent", true);
      sessionId = string(body, "sessionId", true);
      text = string(body, "text", true);
      messageId = string(body, "messageId", false);
      replyAddress = string(body, "replyAddress", false);
      callerId = string(body, "callerId", false);
    } catch (IllegalArgumentException e) {
      fail(msg, new RatchetException(ErrorCode.INVALID_REQUEST, e.getMessage()));
      return;
    }
    ratchet.acceptMessage(agent, sessionId, callerId, messageId, text).onComplete(ar -> {
      if (ar.failed()) {
        fail(msg, ar.cause());
        return;
      }
      Future<dev.ratchet.runtime.agent.AgentReply> reply = ar.result();
      if (reply.isComplete() && reply.succeeded()) {
        msg.reply(new JsonObject().put("status", "answered").put("sessionId", sessionId)
            .put("reply", reply.result().toJson()));
      } else {
        msg.reply(new JsonObject().put("status", "accepted").put("sessionId", sessionId));
      }
      if (replyAddress != null) {
        reply.onComplete(done -> {
          JsonObject out = done.succeeded()
              ? new JsonObject().put("status", "answered").put("reply", done.result().toJson())
              : new JsonObject().put("status", "failed").put("code", code(done.cause()))
                  .put("message", done.cause().getMessage());
          vertx.eventBus().send(replyAddress, out.put("sessionId", sessionId));
        });
      }
    });
  }

  private void conversation(Message<Object> msg) {
    JsonObject body = body(msg);
    if (body == null) {
      return;
    }
    String sessionId;
    try {
      sessionId = string(body, "sessionId", true);
    } catch (IllegalArgumentException e) {
      fail(msg, new RatchetException(ErrorCode.INVALID_REQUEST, e.getMessage()));
      return;
    }
    ratchet.conversation(sessionId).onComplete(ar -> {
      if (ar.failed()) {
        fail(msg, ar.cause());
      } else {
        msg.reply(ar.result());
      }
    });
  }

  private void submit(Message<Object> msg) {
    JsonObject body = body(msg);
    if (body == null) {
      return;
    }
    String agent;
    String sessionId;
    Turn turn;
    String replyAddress;
    String callerId;
    try {
      agent = string(body, "agent", true);
      sessionId = string(body, "sessionId", true);
      replyAddress = string(body, "replyAddress", false);
      callerId = string(body, "callerId", false);
      Object t = body.getValue("turn");
      if (!(t instanceof JsonObject)) {
        throw new IllegalArgumentException("'turn' must be an object {turnId, calls}");
      }
      turn = Turn.fromJson((JsonObject) t);
      EdgeRules.checkTurn(turn);
    } catch (IllegalArgumentException e) {
      fail(msg, new RatchetException(ErrorCode.INVALID_REQUEST, e.getMessage()));
      return;
    } catch (RatchetException e) {
      fail(msg, e);
      return;
    }
    ratchet.accept(agent, sessionId, callerId, turn).onComplete(ar -> {
      if (ar.failed()) {
        fail(msg, ar.cause());
        return;
      }
      Future<dev.ratchet.runtime.TurnResult> result = ar.result();
      if (result.isComplete() && result.succeeded()) {
        msg.reply(new JsonObject().put("status", "completed").put("sessionId", sessionId)
            .put("turnId", turn.turnId()).put("results", result.result().toJson()));
      } else {
        msg.reply(new JsonObject().put("status", "accepted").put("sessionId", sessionId).put("turnId", turn.turnId()));
      }
      if (replyAddress != null) {
        result.onComplete(done -> {
          JsonObject out = done.succeeded()
              ? new JsonObject().put("status", "completed").put("results", done.result().toJson())
              : new JsonObject().put("status", "failed").put("code", code(done.cause()))
                  .put("message", done.cause().getMessage());
          vertx.eventBus().send(replyAddress, out.put("sessionId", sessionId).put("turnId", turn.turnId()));
        });
      }
    });
  }

  private void decide(Message<Object> msg) {
    JsonObject body = body(msg);
    if (body == null) {
      return;
    }
    ApprovalDecision decision;
    try {
      decision = ApprovalDecision.fromJson(body);
      EdgeRules.reason(body.getValue("reason"), decision.approved());
    } catch (IllegalArgumentException e) {
      fail(msg, new RatchetException(ErrorCode.INVALID_REQUEST, e.getMessage()));
      return;
    } catch (RatchetException e) {
      fail(msg, e);
      return;
    }
    ratchet.decide(decision).onComplete(ar -> {
      if (ar.failed()) {
        fail(msg, ar.cause());
      } else if (ar.result() == DecisionAnswer.ACCEPTED) {
        msg.reply(new JsonObject().put("status", "accepted"));
      } else {
        fail(msg, refusal(ar.result()));
      }
    });
  }

  private void pending(Message<Object> msg) {
    // any JSON object (no fields are read) or no body at all; anything else is a mistake worth saying
    if (msg.body() != null && body(msg) == null) {
      return;
    }
    ratchet.pendingApprovals().onComplete(ar -> {
      if (ar.failed()) {
        fail(msg, ar.cause());
        return;
      }
      JsonArray list = new JsonArray();
      for (ApprovalRequest r : ar.result()) {
        list.add(r.toJson());
      }
      msg.reply(new JsonObject().put("approvals", list));
    });
  }

  private void results(Message<Object> msg) {
    JsonObject body = body(msg);
    if (body == null) {
      return;
    }
    String sessionId;
    String turnId;
    try {
      sessionId = string(body, "sessionId", true);
      turnId = string(body, "turnId", true);
    } catch (IllegalArgumentException e) {
      fail(msg, new RatchetException(ErrorCode.INVALID_REQUEST, e.getMessage()));
      return;
    }
    EdgeRules.existing(ratchet.journal(), sessionId)
        .compose(info -> ratchet.journal().turnResult(sessionId, turnId)).onComplete(ar -> {
      if (ar.failed()) {
        fail(msg, ar.cause());
      } else if (ar.result() == null) {
        msg.reply(new JsonObject().put("status", "pending"));
      } else {
        msg.reply(new JsonObject().put("status", "completed").put("results", ar.result().toJson()));
      }
    });
  }

  private static RatchetException refusal(DecisionAnswer answer) {
    return ErrorCodes.refusal(answer);
  }

  private static int status(Throwable err) {
    return ErrorCodes.status(err);
  }

  private static String code(Throwable err) {
    return ErrorCodes.code(err);
  }

  private static void fail(Message<?> msg, Throwable err) {
    msg.fail(status(err), code(err) + ": " + err.getMessage());
  }

  private static JsonObject body(Message<Object> msg) {
    Object body = msg.body();
    if (body instanceof JsonObject) {
      return (JsonObject) body;
    }
    if (body instanceof String) {
      try {
        return new JsonObject((String) body);
      } catch (RuntimeException e) {
        fail(msg, new RatchetException(ErrorCode.INVALID_REQUEST, "the message is not valid JSON"));
        return null;
      }
    }
    fail(msg, new RatchetException(ErrorCode.INVALID_REQUEST, "the message must be a JSON object"));
    return null;
  }

  private static String string(JsonObject body, String field, boolean required) {
    Object v = body.getValue(field);
    if (v == null && !required) {
      return null;
    }
    if (!(v instanceof String) || ((String) v).isBlank()) {
      throw new IllegalArgumentException("'" + field + "' must be a non-empty string");
    }
    return (String) v;
  }
}
