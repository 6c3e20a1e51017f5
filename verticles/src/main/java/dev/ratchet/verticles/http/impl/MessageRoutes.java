package dev.ratchet.verticles.http.impl;

import dev.ratchet.runtime.Accepted;
import dev.ratchet.runtime.MessageRequest;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.agent.AgentReply;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.http.Role;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The agent loop over HTTP: {@code POST /api/sessions/:sessionId/messages} sends a user message
 * (agents with role {@code agent}, and approvers, who may chat with the agent in the dashboard), and
 * {@code GET /api/sessions/:sessionId/messages} reads the conversation.
 */
public record MessageRoutes(Vertx vertx, RatchetNode ratchet, SessionAccess access) {

  static final int MAX_WAIT_SECONDS = 60;
  /** Agents send messages, and so do approvers, who may chat with the agent in the dashboard. */
  private static final Handler<RoutingContext> MAY_SEND = AuthHandler.requireAny("send messages",
      Role.Permission.SUBMIT, Role.Permission.DECIDE);

  public void mount(Router router) {
    router.post("/api/sessions/:sessionId/messages").handler(MAY_SEND).handler(this::send);
    router.get("/api/sessions/:sessionId/messages").handler(AuthHandler.require(Role.Permission.READ_RESULTS))
        .handler(this::conversation);
  }

  private void send(RoutingContext ctx) {
    String sessionId = ctx.pathParam("sessionId");
    String agent;
    String text;
    String messageId;
    int wait;
    try {
      JsonObject body = Replies.body(ctx);
      Replies.refuseCallerField(body);
      agent = Replies.string(body, "agent", true);
      text = Replies.string(body, "text", true);
      messageId = Replies.string(body, "messageId", false);
      String w = ctx.request().getParam("wait");
      wait = w == null ? 0 : Math.max(0, Math.min(MAX_WAIT_SECONDS, Integer.parseInt(w)));
    } catch (NumberFormatException e) {
      Replies.fail(ctx, Replies.invalid("'wait' must be a number of seconds"));
      return;
    } catch (RatchetException e) {
      Replies.fail(ctx, e);
      return;
    }
    Principal principal = AuthHandler.principal(ctx);
    // the session's caller is who authenticated, never what the body says
    String callerId = principal.callerId();
    Future<Accepted<AgentReply>> accepted = access.mayUse(principal, sessionId).compose(v ->
        ratchet.acceptMessage(MessageRequest.of(agent, sessionId, text).callerId(callerId).creator(principal.name())
            .messageId(messageId)));
    accepted.onComplete(ar -> {
      if (ar.failed()) {
        access.edgeError(principal, sessionId, ar.cause()).onComplete(err -> Replies.fail(ctx, err.result()));
        return;
      }
      Future<AgentReply> reply = ar.result().result();
      JsonObject answer = new JsonObject().put("sessionId", sessionId)
          .put("conversationUrl", "/api/sessions/" + sessionId + "/messages")
          .put("eventsUrl", "/api/sessions/" + sessionId + "/events");
      within(reply, wait * 1000L).onComplete(done -> {
        if (done.succeeded() && done.result() != null) {
          Replies.json(ctx, 200, answer.put("status", "answered").put("reply", done.result().toJson()));
        } else {
          Replies.json(ctx, 202, answer.put("status", "accepted"));
        }
      });
    });
  }

  /** The reply if it comes within the wait, else null (the round goes on; the conversation shows it). */
  private Future<AgentReply> within(Future<AgentReply> reply, long millis) {
    if (reply.isComplete() || millis <= 0) {
      return reply.isComplete() && reply.succeeded() ? reply : Future.succeededFuture(null);
    }
    Promise<AgentReply> promise = Promise.promise();
    long timer = vertx.setTimer(millis, t -> promise.tryComplete(null));
    reply.onComplete(ar -> {
      vertx.cancelTimer(timer);
      promise.tryComplete(ar.succeeded() ? ar.result() : null);
    });
    return promise.future();
  }

  private void conversation(RoutingContext ctx) {
    String sessionId = ctx.pathParam("sessionId");
    access.visible(AuthHandler.principal(ctx), sessionId).compose(info -> ratchet.queries().conversation(sessionId))
        .onComplete(Replies.ok(ctx));
  }
}
