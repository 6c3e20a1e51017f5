package dev.ratchet.verticles.http.impl;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.verticles.ClusterStatus;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.http.Role;
import io.netty.util.concurrent.EventExecutor;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code GET /health}, {@code /health/live} and {@code /health/ready} (no login: load balancers and
 * orchestrators call them; they reveal up or down, readiness and, in a cluster, this member's
 * random node id and how many members there are) and {@code GET /metrics} (Prometheus text; a
 * login or token that sees every tenant, {@code "tenants": "*"}).
 */
public record HealthRoutes(RatchetNode ratchet, RatchetMetrics metrics) {

  static final long TIMEOUT_MILLIS = 2_000;

  public void mountPublic(Router router) {
    router.get("/health").handler(this::health);
    router.get("/health/live").handler(this::live);
    router.get("/health/ready").handler(this::ready);
  }

  public void mountProtected(Router router) {
    router.get("/metrics").handler(AuthHandler.require(Role.Permission.READ)).handler(this::metrics);
  }

  private void health(RoutingContext ctx) {
    journal().onComplete(ar -> {
      JsonObject body = ar.result();
      if (!"writable".equals(body.getString("journal"))) {
        Replies.json(ctx, 503, body.put("status", "DOWN"));
        return;
      }
      JsonObject up = new JsonObject().put("status", "UP").mergeIn(body);
      ClusterStatus cluster = ratchet.cluster();
      if (cluster.clustered()) {
        up.put("cluster", new JsonObject().put("node", cluster.node()).put("members", cluster.members().size()));
      }
      Replies.json(ctx, 200, up);
    });
  }

  /** Live: this request was served, and every event loop of the process runs a task within the timeout. */
  private void live(RoutingContext ctx) {
    List<Future<Void>> answers = new ArrayList<>();
    for (EventExecutor loop : ((VertxInternal) ctx.vertx()).nettyEventLoopGroup()) {
      Promise<Void> answered = Promise.promise();
      loop.execute(answered::tryComplete);
      answers.add(answered.future().timeout(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS));
    }
    Future.join(answers).onComplete(ar -> {
      long ok = answers.stream().filter(Future::succeeded).count();
      JsonObject body = new JsonObject().put("eventLoops", answers.size()).put("answering", ok);
      Replies.json(ctx, ok == answers.size() ? 200 : 503, body.put("status", ok == answers.size() ? "UP" : "DOWN"));
    });
  }

  /**
   * Ready: the journal is reachable and writable, and the runtime takes sessions (its agents are
   * loaded and, in a cluster, it is among placement's candidates). docs/HTTP-API.md, "Health".
   */
  private void ready(RoutingContext ctx) {
    journal().onComplete(ar -> {
      JsonObject body = ar.result();
      JsonArray waiting = new JsonArray();
      if (!"writable".equals(body.getString("journal"))) {
        waiting.add("journal");
      }
      ClusterStatus cluster = ratchet.cluster();
      if (!ratchet.ready()) {
        waiting.add("agents");
        if (cluster.clustered()) {
          waiting.add("placement");
        }
      }
      body.put("agents", ratchet.queries().agents().size());
      if (cluster.clustered()) {
        body.put("cluster", new JsonObject().put("node", cluster.node()).put("members", cluster.members().size())
            .put("placement", ratchet.ready() ? "joined" : "not joined"));
      }
      if (waiting.isEmpty()) {
        Replies.json(ctx, 200, body.put("status", "READY"));
      } else {
        ctx.response().putHeader("Retry-After", Replies.RETRY_AFTER_SECONDS);
        Replies.json(ctx, 503, body.put("status", "NOT_READY").put("waitingFor", waiting));
      }
    });
  }

  /**
   * The journal's state, never failed: reachable when Redis answers PING, writable when the
   * journal can append (a SET under its prefix).
   */
  private Future<JsonObject> journal() {
    Promise<JsonObject> state = Promise.promise();
    ratchet.diagnostics().reachable().timeout(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS).onComplete(ping -> {
      if (ping.failed()) {
        state.complete(new JsonObject().put("redis", "unreachable").put("journal", "unavailable"));
        return;
      }
      long started = System.nanoTime();
      ratchet.diagnostics().ping().timeout(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS).onComplete(write -> {
        if (write.failed()) {
          state.complete(new JsonObject().put("redis", "reachable").put("journal", "not writable"));
          return;
        }
        metrics.journalAppend("health", System.nanoTime() - started);
        state.complete(new JsonObject().put("redis", "reachable").put("journal", "writable"));
      });
    });
    return state.future();
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
