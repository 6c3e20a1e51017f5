package dev.ratchet.verticles.http.impl;

import dev.ratchet.runtime.Accepted;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnRequest;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.StepEvents;
import dev.ratchet.verticles.http.JournalReader;
import dev.ratchet.verticles.http.Role;
import dev.ratchet.verticles.impl.EdgeRules;
import dev.ratchet.verticles.impl.ErrorCodes;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Submitting turns and reading their results:
 * {@code POST /api/sessions/:sessionId/turns} and {@code GET /api/sessions/:sessionId/turns/:turnId[?wait=s]}.
 */
public record TurnRoutes(Vertx vertx, RatchetNode ratchet, RatchetMetrics metrics, SessionAccess access) {

  static final int MAX_WAIT_SECONDS = 60;

  public void mount(Router router) {
    router.post("/api/sessions/:sessionId/turns").handler(AuthHandler.require(Role.Permission.SUBMIT))
        .handler(this::submit);
    router.get("/api/sessions/:sessionId/turns/:turnId").handler(AuthHandler.require(Role.Permission.READ_RESULTS))
        .handler(this::result);
  }

  private void submit(RoutingContext ctx) {
    String sessionId = ctx.pathParam("sessionId");
    String agent;
    Turn turn;
    try {
      JsonObject body = Replies.body(ctx);
      Replies.refuseCallerField(body);
      agent = Replies.string(body, "agent", true);
      Object t = body.getValue("turn");
      if (!(t instanceof JsonObject)) {
        throw Replies.invalid("'turn' must be an object {turnId, calls}");
      }
      Turn parsed = Turn.fromJson((JsonObject) t);
      String traceparent = ctx.request().getHeader(Turn.TRACEPARENT);
      // the W3C header wins over a field in the body; a malformed one starts a new trace
      turn = traceparent == null ? parsed : parsed.withTraceparent(traceparent);
      EdgeRules.checkTurn(turn);
    } catch (IllegalArgumentException e) {
      Replies.fail(ctx, Replies.invalid(e.getMessage()));
      return;
    } catch (RatchetException e) {
      Replies.fail(ctx, e);
      return;
    }
    long started = System.nanoTime();
    Principal principal = AuthHandler.principal(ctx);
    // the session's caller is who authenticated, never what the body says
    String callerId = principal.callerId();
    // the creator's name is kept with a session it creates, for the four-eyes rule
    Future<Accepted<TurnResult>> accepted = access.mayUse(principal, sessionId)
        .compose(v -> ratchet.accept(TurnRequest.of(agent, sessionId, turn).callerId(callerId)
            .creator(principal.name())));
    accepted.onComplete(ar -> {
      if (ar.failed()) {
        access.edgeError(principal, sessionId, ar.cause()).onComplete(err -> Replies.fail(ctx, err.result()));
        return;
      }
      metrics.journalAppend("submit", System.nanoTime() - started);
      Future<TurnResult> result = ar.result().result();
      JsonObject answer = new JsonObject().put("sessionId", sessionId).put("turnId", turn.turnId());
      withReconciled(sessionId, turn.turnId(), answer).onComplete(done -> {
        if (result.isComplete() && result.succeeded()) {
          Replies.json(ctx, 200, answer.put("status", "completed").put("results", result.result().toJson()));
        } else {
          String base = "/api/sessions/" + sessionId;
          Replies.json(ctx, 202, answer.put("status", "accepted")
              .put("resultsUrl", base + "/turns/" + turn.turnId()).put("eventsUrl", base + "/events"));
        }
      });
    });
  }

  private void result(RoutingContext ctx) {
    String sessionId = ctx.pathParam("sessionId");
    String turnId = ctx.pathParam("turnId");
    int wait;
    try {
      String w = ctx.request().getParam("wait");
      wait = w == null ? 0 : Math.max(0, Math.min(MAX_WAIT_SECONDS, Integer.parseInt(w)));
    } catch (NumberFormatException e) {
      Replies.fail(ctx, Replies.invalid("'wait' must be a number of seconds"));
      return;
    }
    // the session is checked once: its caller never changes after it exists
    Future<TurnResult> lookup = access.visible(AuthHandler.principal(ctx), sessionId)
        .compose(info -> ratchet.journal().turnStatus(sessionId, turnId))
        .compose(status -> {
          if (status == null) {
            // a turn refused at submission left nothing in the journal: it is not pending
            return Future.failedFuture(ErrorCodes.unknownTurn(sessionId, turnId));
          }
          return wait == 0 ? ratchet.journal().turnResult(sessionId, turnId)
              : awaitResult(sessionId, turnId, wait * 1000L);
        });
    lookup.onComplete(ar -> {
      if (ar.failed()) {
        Replies.fail(ctx, ar.cause());
        return;
      }
      JsonObject answer = new JsonObject().put("sessionId", sessionId).put("turnId", turnId);
      if (ar.result() == null) {
        Replies.json(ctx, 202, answer.put("status", "pending"));
        return;
      }
      withReconciled(sessionId, turnId, answer).onComplete(done ->
          Replies.json(ctx, 200, answer.put("status", "completed").put("results", ar.result().toJson())));
    });
  }

  /** Long poll: listens for the session's events first, then looks, so no completion slips between. */
  private Future<TurnResult> awaitResult(String sessionId, String turnId, long waitMillis) {
    Promise<TurnResult> promise = Promise.promise();
    MessageConsumer<JsonObject> consumer = StepEvents.consumer(vertx, sessionId, null);
    long timer = vertx.setTimer(waitMillis, t -> promise.tryComplete(null));
    consumer.handler(msg -> {
      JsonObject e = msg.body();
      if (EventType.TURN_COMPLETED.wireName().equals(e.getString("type")) && turnId.equals(e.getString("turnId"))) {
        ratchet.journal().turnResult(sessionId, turnId).onSuccess(r -> {
          if (r != null) {
            promise.tryComplete(r);
          }
        });
      }
    });
    consumer.completion().compose(v -> ratchet.journal().turnResult(sessionId, turnId)).onComplete(ar -> {
      if (ar.failed()) {
        promise.tryFail(ar.cause());
      } else if (ar.result() != null) {
        promise.tryComplete(ar.result());
      }
    });
    return promise.future().andThen(done -> {
      vertx.cancelTimer(timer);
      consumer.unregister();
    });
  }

  /** Adds {@code reconciled}: calls a person reconciled since the previous turn, for the model to see. */
  private Future<Void> withReconciled(String sessionId, String turnId, JsonObject answer) {
    return JournalReader.all(ratchet.journal(), sessionId).map(events -> {
      answer.put("reconciled", new JsonArray(JournalReader.reconciledBefore(events, turnId)));
      return (Void) null;
    }).otherwiseEmpty();
  }
}
