package dev.ratchet.verticles.http.impl;

import dev.ratchet.verticles.Addresses;
import dev.ratchet.verticles.http.Role;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code GET /api/approvals/events}: the principal's inbox as server-sent events. An {@code inbox}
 * event carries the whole inbox ({@link ApprovalRoutes#inbox}, the principal's tenants only) and the
 * number of calls that need reconciling ({@link UnknownOutcomes}) when the
 * stream opens and whenever it changes; approvals requested or decided on this node wake it at once,
 * and a slow poll catches those of other nodes. A {@code ping} event every few seconds lets the page
 * tell a live server from a connection that silently died.
 */
public record InboxStream(Vertx vertx, ApprovalRoutes approvals, UnknownOutcomes unknown) {

  static final long POLL_MILLIS = 5_000;
  static final long PING_MILLIS = 5_000;

  public void mount(Router router) {
    router.get("/api/approvals/events").handler(AuthHandler.require(Role.Permission.READ)).handler(this::stream);
  }

  private void stream(RoutingContext ctx) {
    HttpServerResponse response = ctx.response();
    // a reconnecting page retries quickly: the banner it shows meanwhile should not linger
    SsePump.open(response, "retry: 2000\n\n");
    Pump pump = new Pump(AuthHandler.principal(ctx), response);
    pump.every(PING_MILLIS, () -> pump.event("ping", new JsonObject().put("at", System.currentTimeMillis()).encode()));
    pump.start(POLL_MILLIS, Addresses.APPROVAL_REQUESTED, Addresses.APPROVAL_DECIDED);
  }

  /** One page's stream: reads the inbox and sends it when it changed. */
  private final class Pump extends SsePump {
    private final Principal principal;
    private String lastSent;

    Pump(Principal principal, HttpServerResponse response) {
      super(vertx, response);
      this.principal = principal;
    }

    @Override
    protected Future<Boolean> read() {
      return approvals.inbox(principal).compose(inbox -> unknown.of(principal)
          .map(calls -> inbox.put("needsReconciliation", calls.size()))).map(inbox -> {
            String encoded = inbox.encode();
            if (!encoded.equals(lastSent)) {
              lastSent = encoded;
              event("inbox", encoded);
            }
            return false;
          }).otherwise(err -> {
            event("error", new JsonObject().put("code", "JOURNAL_UNAVAILABLE")
                .put("message", "the journal is unavailable; the inbox shown may be out of date").encode());
            lastSent = null;
            return false;
          });
    }
  }
}
