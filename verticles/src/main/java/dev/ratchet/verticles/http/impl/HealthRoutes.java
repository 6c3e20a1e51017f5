package dev.ratchet.verticles.http.impl;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.verticles.ClusterStatus;
import dev.ratchet.verticles.Ratchet;
import dev.ratchet.verticles.http.Role;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.concurrent.TimeUnit;

/**
 * {@code GET /health} (no login: load balancers call it; it reveals up or down and, in a cluster,
 * this member's random node id and how many members there are) and
 * {@code GET /metrics} (Prometheus text; a login or token that sees every tenant, {@code "tenants": "*"}).
 */
public record HealthRoutes(Ratchet ratchet, RatchetMetrics metrics) {

  static final long TIMEOUT_MILLIS = 2_000;

  public void mountPublic(Router router) {
    router.get("/health").handler(this::health);
  }

  public void mountProtected(Router router) {
    router.get("/metrics").handler(AuthHandler.require(Role.Permission.READ)).handler(this::metrics);
  }

  private void health(RoutingContext ctx) {
    // reachable: Redis answers PING; writable: the journal can append (a SET under its prefix)
    ratchet.journal().reachable().timeout(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
        .onComplete(ping -> {
          if (ping.failed()) {
            Replies.json(ctx, 503, new JsonObject().put("status", "DOWN").put("redis", "unreachable")
                .put("journal", "unavailable"));
            return;
          }
          long started = System.nanoTime();
          ratchet.journal().ping().timeout(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS).onComplete(write -> {
            if (write.failed()) {
              Replies.json(ctx, 503, new JsonObject().put("status", "DOWN").put("redis", "reachable")
                  .put("journal", "not writable"));
              return;
            }
            metrics.journalAppend("health", System.nanoTime() - started);
            JsonObject up = new JsonObject().put("status", "UP").put("redis", "reachable").put("journal", "writable");
            ClusterStatus cluster = ratchet.cluster();
            if (cluster.clustered()) {
              up.put("cluster", new JsonObject().put("node", cluster.node()).put("members", cluster.members().size()));
            }
            Replies.json(ctx, 200, up);
          });
        });
  }

  private void metrics(RoutingContext ctx) {
    if (!AuthHandler.principal(ctx).tenants().all()) {
      // the figures (pending approvals, calls, turns) cover every tenant
      Replies.error(ctx, ErrorCode.FORBIDDEN, "metrics cover every tenant: only a user or token with \"tenants\": \"*\""
          + " may read them");
      return;
    }
    ctx.response().putHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
        .putHeader("Cache-Control", "no-store").end(metrics.scrape());
  }
}
