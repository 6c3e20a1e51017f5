package dev.ratchet.verticles.impl;

import dev.ratchet.runtime.Accepted;
import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.DecisionResult;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.MessageRequest;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnRequest;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.agent.AgentReply;
import dev.ratchet.verticles.Addresses;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Ratchet's event-bus protocol. The event bus is in-process (or the application's own cluster), so
 * it is trusted like the Java API: a submit or message may name the session's {@code callerId}, and
 * no address applies the HTTP API's tenants (docs/HTTP-API.md): never bridge it to untrusted clients.
 * Every malformed message gets an error reply with a status code
 * and a {@code CODE: message} text; nothing here lets a bad message stop the verticle.
 */
final class EventBusApi extends VerticleBase {

  private final RatchetNodeImpl ratchet;

  EventBusApi(RatchetNodeImpl ratchet) {
    this.ratchet = ratchet;
  }

  @Override
  public Future<?> start() {
    return Future.all(List.of(
        consume(Addresses.SUBMIT, this::submit),
        consume(Addresses.DECIDE, this::decide),
        vertx.eventBus().<Object>consumer(Addresses.PENDING, this::pending).completion(),
        consume(Addresses.RESULTS, this::results),
        consume(Addresses.MESSAGES_SEND, this::message),
        consume(Addresses.CONVERSATION, this::conversation)));
  }

  /**
   * Hands each request's JSON object to {@code handler}; a request that is not one, or that the
   * handler finds malformed (an {@link IllegalArgumentException}), is answered as {@code INVALID_REQUEST}.
   */
  private Future<Void> consume(String address, BiConsumer<Message<Object>, JsonObject> handler) {
    return vertx.eventBus().<Object>consumer(address, msg -> {
      JsonObject body = body(msg);
      if (body == null) {
        return;
      }
      try {
        handler.accept(msg, body);
      } catch (IllegalArgumentException e) {
        fail(msg, new RatchetException(ErrorCode.INVALID_REQUEST, e.getMessage()));
      } catch (RatchetException e) {
        fail(msg, e);
      }
    }).completion();
  }

  /** A user message for the agent loop: acknowledged once journaled; the reply goes to replyAddress. */
  private void message(Message<Object> msg, JsonObject body) {
    String agent = string(body, "agent", true);
    String sessionId = string(body, "sessionId", true);
    String text = string(body, "text", true);
    String messageId = string(body, "messageId", false);
    String replyAddress = string(body, "replyAddress", false);
    String callerId = string(body, "callerId", false);
    // the member that runs the session answers replyAddress, journaled with the message, not this one
    answer(msg, ratchet.acceptMessage(MessageRequest.of(agent, sessionId, text).callerId(callerId)
        .messageId(messageId), replyAddress),
        new JsonObject().put("sessionId", sessionId), "answered", "reply", AgentReply::toJson);
  }

  /** What a message's reply address receives: the reply, or why its round could not end. */
  static JsonObject messageReply(String sessionId, String messageId, AsyncResult<AgentReply> outcome) {
    return outcome(outcome, "answered", "reply", AgentReply::toJson).put("sessionId", sessionId)
        .put("messageId", messageId);
  }

  private void conversation(Message<Object> msg, JsonObject body) {
    reply(msg, ratchet.queries().conversation(string(body, "sessionId", true)), conversation -> conversation);
  }

  private void submit(Message<Object> msg, JsonObject body) {
    String agent = string(body, "agent", true);
    String sessionId = string(body, "sessionId", true);
    String replyAddress = string(body, "replyAddress", false);
    String callerId = string(body, "callerId", false);
    Object t = body.getValue("turn");
    if (!(t instanceof JsonObject)) {
      throw new IllegalArgumentException("'turn' must be an object {turnId, calls}");
    }
    Turn turn = Turn.fromJson((JsonObject) t);
    String traceparent = msg.headers().get(Turn.TRACEPARENT);
    if (traceparent != null) {
      turn = turn.withTraceparent(traceparent);
    }
    EdgeRules.checkTurn(turn);
    // the member that runs the session answers replyAddress, journaled with the turn, not this one
    answer(msg, ratchet.accept(TurnRequest.of(agent, sessionId, turn).callerId(callerId), replyAddress),
        new JsonObject().put("sessionId", sessionId).put("turnId", turn.turnId()), "completed",
        "results", TurnResult::toJson);
  }

  /** What a turn's reply address receives: its results, or why it could not complete. */
  static JsonObject turnReply(String sessionId, String turnId, AsyncResult<TurnResult> outcome) {
    return outcome(outcome, "completed", "results", TurnResult::toJson)
        .put("sessionId", sessionId).put("turnId", turnId);
  }

  /**
   * Answers an accepted turn or message: with its outcome when that is already there, else as
   * {@code accepted}. Its reply address is answered by the member that runs the session.
   */
  private <T> void answer(Message<Object> msg, Future<Accepted<T>> accepted, JsonObject ids, String doneStatus,
                          String field, Function<T, JsonObject> json) {
    accepted.onComplete(ar -> {
      if (ar.failed()) {
        fail(msg, ar.cause());
        return;
      }
      Future<T> outcome = ar.result().result();
      if (outcome.isComplete() && outcome.succeeded()) {
        msg.reply(new JsonObject().put("status", doneStatus).mergeIn(ids).put(field, json.apply(outcome.result())));
      } else {
        msg.reply(new JsonObject().put("status", "accepted").mergeIn(ids));
      }
    });
  }

  private static <T> JsonObject outcome(AsyncResult<T> done, String doneStatus, String field,
                                        Function<T, JsonObject> json) {
    return done.succeeded()
        ? new JsonObject().put("status", doneStatus).put(field, json.apply(done.result()))
        : new JsonObject().put("status", "failed").put("code", code(done.cause()))
            .put("message", done.cause().getMessage());
  }

  private void decide(Message<Object> msg, JsonObject body) {
    ApprovalDecision decision = ApprovalDecision.fromJson(body);
    EdgeRules.reason(body.getValue("reason"), decision.approved());
    ratchet.decide(decision).onComplete(ar -> {
      if (ar.failed()) {
        fail(msg, ar.cause());
      } else if (ar.result() == DecisionResult.ACCEPTED) {
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
    reply(msg, ratchet.pendingApprovals(), requests -> {
      JsonArray list = new JsonArray();
      for (ApprovalRequest r : requests) {
        list.add(r.toJson());
      }
      return new JsonObject().put("approvals", list);
    });
  }

  private void results(Message<Object> msg, JsonObject body) {
    String sessionId = string(body, "sessionId", true);
    String turnId = string(body, "turnId", true);
    reply(msg, EdgeRules.existing(ratchet.journal(), sessionId)
        .compose(info -> ratchet.journal().turnResult(sessionId, turnId))
        .compose(result -> result != null ? Future.succeededFuture(result)
            : ratchet.journal().turnStatus(sessionId, turnId).compose(status -> status != null
                ? Future.succeededFuture(null)
                : Future.failedFuture(ErrorCodes.unknownTurn(sessionId, turnId)))), result -> result == null
        ? new JsonObject().put("status", "pending")
        : new JsonObject().put("status", "completed").put("results", result.toJson()));
  }

  /** Replies with what {@code answer} makes of the result, or with the failure. */
  private static <T> void reply(Message<Object> msg, Future<T> result, Function<T, JsonObject> answer) {
    result.onComplete(ar -> {
      if (ar.failed()) {
        fail(msg, ar.cause());
      } else {
        msg.reply(answer.apply(ar.result()));
      }
    });
  }

  private static RatchetException refusal(DecisionResult answer) {
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
