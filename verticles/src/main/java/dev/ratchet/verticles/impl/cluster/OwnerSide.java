package dev.ratchet.verticles.impl.cluster;

import dev.ratchet.runtime.Accepted;
import dev.ratchet.runtime.MessageRequest;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnRequest;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;

import java.util.function.Function;

/**
 * The owner's side of routing: answers the requests other members forward to the sessions this
 * member runs, and passes on those for a session it has handed over while leaving.
 */
final class OwnerSide implements Handler<Message<JsonObject>> {

  private final Vertx vertx;
  private final ClusterMembers members;
  private final SessionRouter.Local local;
  /** Forwards a request to the member that runs its session now. */
  private final Function<JsonObject, Future<JsonObject>> forwardOn;

  OwnerSide(Vertx vertx, ClusterMembers members, SessionRouter.Local local,
            Function<JsonObject, Future<JsonObject>> forwardOn) {
    this.vertx = vertx;
    this.members = members;
    this.local = local;
    this.forwardOn = forwardOn;
  }

  @Override
  public void handle(Message<JsonObject> msg) {
    JsonObject r = msg.body();
    String agent = r.getString("agent");
    String sessionId = r.getString("sessionId");
    String op = r.getString("op");
    if ("resume".equals(op)) {
      local.resume(agent, sessionId).onSuccess(v -> msg.reply(new JsonObject()))
          .onFailure(err -> Forwarded.fail(msg, err));
      return;
    }
    if (members.leaving() && !local.holds(sessionId)) {
      passOn(msg);
      return;
    }
    if ("turn".equals(op)) {
      local.accept(new TurnRequest(agent, sessionId, Turn.fromJson(r.getJsonObject("turn")), r.getString("callerId"),
              r.getString("creator")), r.getString("replyAddress"))
          .map(Accepted::result)
          // a turn that completed before answers with its results, so a resent turn id is answered completed at once
          .onSuccess(result -> msg.reply(result.isComplete() && result.succeeded() && result.result() != null
              ? new JsonObject().put("results", result.result().toJson()) : new JsonObject()))
          .onFailure(err -> failOrPassOn(msg, err));
      return;
    }
    String replyAddress = r.getString("replyAddress");
    local.acceptMessage(new MessageRequest(agent, sessionId, r.getString("text"), r.getString("callerId"),
            r.getString("creator"), r.getString("messageId")), r.getString("answerTo"))
        .map(Accepted::result)
        .onSuccess(reply -> {
          msg.reply(new JsonObject());
          reply.onComplete(ar -> {
            if (ar.failed() && members.leaving() && !local.holds(sessionId)) {
              // handed over mid-round: the next owner answers the same message id with the same reply
              forwardOn.apply(r).onFailure(err -> vertx.eventBus().send(replyAddress,
                  new JsonObject().put("error", Forwarded.encode(err))));
              return;
            }
            vertx.eventBus().send(replyAddress, ar.succeeded() ? ar.result().toJson()
                : new JsonObject().put("error", Forwarded.encode(ar.cause())));
          });
        })
        .onFailure(err -> failOrPassOn(msg, err));
  }

  /** Fails the request, unless this member handed its session over meanwhile: then the next owner answers it. */
  private void failOrPassOn(Message<JsonObject> msg, Throwable err) {
    if (members.leaving() && !local.holds(msg.body().getString("sessionId"))) {
      passOn(msg);
    } else {
      Forwarded.fail(msg, err);
    }
  }

  /** A request for a session this leaving member no longer holds goes on to the member that runs it now. */
  private void passOn(Message<JsonObject> msg) {
    forwardOn.apply(msg.body()).onSuccess(msg::reply).onFailure(err -> Forwarded.fail(msg, err));
  }

}
