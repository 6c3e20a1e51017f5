package dev.ratchet.verticles.http.impl;

import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.http.Role;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Sessions: {@code GET /api/sessions?offset=&limit=} (recent first), {@code GET /api/sessions/:id[?before=&limit=]}
 * (the timeline, a page of turns at a time: {@link TimelinePage}) and
 * {@code POST /api/sessions/:id/calls/:callId/reconcile}, each for the principal's tenants only
 * ({@link SessionAccess}, {@link SessionList}).
 */
public record SessionRoutes(RatchetNode ratchet, RatchetMetrics metrics, SessionAccess access) {

  static final int MAX_LIMIT = 200;

  public void mount(Router router) {
    router.get("/api/sessions").handler(AuthHandler.require(Role.Permission.READ)).handler(this::list);
    router.get("/api/sessions/:sessionId").handler(AuthHandler.require(Role.Permission.READ)).handler(this::timeline);
    router.post("/api/sessions/:sessionId/calls/:callId/reconcile")
        .handler(AuthHandler.require(Role.Permission.RECONCILE)).handler(this::reconcile);
  }

  private void list(RoutingContext ctx) {
    int offset;
    int limit;
    SessionFilter filter;
    try {
      filter = SessionFilter.of(ctx);
      offset = intParam(ctx, "offset", 0);
      limit = Math.min(MAX_LIMIT, intParam(ctx, "limit", 50));
      if (offset < 0 || limit < 1) {
        throw Replies.invalid("'offset' must be >= 0 and 'limit' >= 1");
      }
    } catch (RatchetException e) {
      Replies.fail(ctx, e);
      return;
    }
    new SessionList(ratchet.journal()).page(AuthHandler.principal(ctx), offset, limit, filter)
        .onComplete(Replies.ok(ctx));
  }

  private void timeline(RoutingContext ctx) {
    String sessionId = ctx.pathParam("sessionId");
    TimelinePage page;
    try {
      page = TimelinePage.of(ctx);
    } catch (RatchetException e) {
      Replies.fail(ctx, e);
      return;
    }
    access.visible(AuthHandler.principal(ctx), sessionId)
        .compose(info -> page.read(ratchet.journal(), sessionId, info)).onComplete(Replies.ok(ctx));
  }

  private void reconcile(RoutingContext ctx) {
    String sessionId = ctx.pathParam("sessionId");
    String callId = ctx.pathParam("callId");
    Outcome outcome;
    String note;
    try {
      JsonObject body = Replies.body(ctx);
      Object o = body.getValue("outcome");
      if (!"succeeded".equals(o) && !"failed".equals(o)) {
        throw Replies.invalid("'outcome' must be \"succeeded\" or \"failed\"");
      }
      outcome = Outcome.fromWireName((String) o);
      Object n = body.getValue("note");
      if (!(n instanceof String) || ((String) n).isBlank() || ((String) n).length() > 2000) {
        throw Replies.invalid("'note' must say what was checked at the provider (1-2000 characters)");
      }
      note = (String) n;
    } catch (RatchetException e) {
      Replies.fail(ctx, e);
      return;
    }
    // who: the logged-in user or token name, never a value from the body
    String who = AuthHandler.principal(ctx).name();
    long started = System.nanoTime();
    access.visible(AuthHandler.principal(ctx), sessionId)
        .compose(info -> ratchet.reconcile(sessionId, new CallId(callId), outcome, who, note)).onComplete(ar -> {
      if (ar.failed()) {
        Replies.fail(ctx, ar.cause());
        return;
      }
      metrics.journalAppend("reconcile", System.nanoTime() - started);
      Replies.json(ctx, 200, new JsonObject().put("status", "reconciled").put("call", ar.result().toJson()));
    });
  }

  private static int intParam(RoutingContext ctx, String name, int dflt) {
    String v = ctx.request().getParam(name);
    if (v == null || v.isEmpty()) {
      return dflt;
    }
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw Replies.invalid("'" + name + "' must be a number");
    }
  }
}
