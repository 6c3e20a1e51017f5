package dev.ratchet.verticles.http.impl;

import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.http.Role;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Data lifecycle: {@code DELETE /api/sessions/:id} erases a session (journal, tombstones, archive),
 * for operators only: principals who may reconcile and see every tenant ({@code "*"}); to anyone
 * else the session does not exist (404 {@code UNKNOWN_SESSION}), as for a missing one. The erasure
 * is audited by the runtime with the principal's name. {@code GET /api/retention} shows the
 * retention settings, per agent.
 */
public record RetentionRoutes(RatchetNode ratchet, SessionAccess access) {

  public void mount(Router router) {
    router.delete("/api/sessions/:sessionId").handler(this::erase);
    router.get("/api/retention").handler(AuthHandler.require(Role.Permission.READ))
        .handler(ctx -> Replies.json(ctx, 200, ratchet.retentionSettings()));
  }

  private void erase(RoutingContext ctx) {
    String sessionId = ctx.pathParam("sessionId");
    Principal p = AuthHandler.principal(ctx);
    if (p == null || !p.role().may(Role.Permission.RECONCILE) || !p.tenants().all()) {
      Replies.fail(ctx, SessionAccess.unknown(sessionId));
      return;
    }
    ratchet.eraseSession(sessionId, p.name()).onComplete(ar -> {
      if (ar.failed()) {
        Replies.fail(ctx, ar.cause());
      } else if (!ar.result()) {
        Replies.fail(ctx, SessionAccess.unknown(sessionId));
      } else {
        Replies.json(ctx, 200, new JsonObject().put("status", "erased").put("session", sessionId));
      }
    });
  }
}
