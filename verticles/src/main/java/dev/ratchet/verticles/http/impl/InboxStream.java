package dev.ratchet.verticles.http.impl;

import dev.ratchet.verticles.Addresses;
import dev.ratchet.verticles.http.Role;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code GET /api/approvals/events}: the principal's inbox as server-sent events. An {@code inbox}
 * event carries the whole inbox ({@link ApprovalRoutes#inbox}, the principal's tenants only) and the
 * number of calls that need reconciling ({@link UnknownOutcomes}) when the
 * stream opens and whenever it changes; approvals requested or decided on this node wake it at once,
 * and a slow poll catches those of other nodes. A {@code ping} event every few seconds lets the page
 * tell a live server from a connection that silently died.
 */
public final class InboxStream {

  static final long POLL_MILLIS = 5_000;
  static final long PING_MILLIS = 5_000;

  private final Vertx vertx;
  private final ApprovalRoutes approvals;
  private final UnknownOutcomes unknown;

  public InboxStream(Vertx vertx, ApprovalRoutes approvals, UnknownOutcomes unknown) {
    this.vertx = vertx;
    this.approvals = approvals;
    this.unknown = unknown;
  }

  public void mount(Router router) {
    router.get("/api/approvals/events").handler(AuthHandler.require(Role.Permission.READ)).handler(this::stream);
  }

  private void stream(RoutingContext ctx) {
    HttpServerResponse response = ctx.response();
    response.setChunked(true).putHeader("Content-Type", "text/event-stream; charset=utf-8")
        .putHeader("Cache-Control", "no-store").putHeader("X-Accel-Buffering", "no");
    // a reconnecting page retries quickly: the banner it shows meanwhile should not linger
    response.write("retry: 2000\n\n");
    new Pump(AuthHandler.principal(ctx), response).start();
  }

  /** One page's stream: reads the inbox whenever woken, one read at a time, and sends it when it changed. */
  private final class Pump {
    private final Principal principal;
    private final HttpServerResponse response;
    private final List<MessageConsumer<Object>> consumers = new ArrayList<>();
    private String lastSent;
    private boolean reading;
    private boolean again;
    private boolean closed;
    private long poll;
    private long ping;

    Pump(Principal principal, HttpServerResponse response) {
      this.principal = principal;
      this.response = response;
    }

    void start() {
      consumers.add(vertx.eventBus().consumer(Addresses.APPROVAL_REQUESTED, msg -> read()));
      consumers.add(vertx.eventBus().consumer(Addresses.APPROVAL_DECIDED, msg -> read()));
      poll = vertx.setPeriodic(POLL_MILLIS, t -> read());
      ping = vertx.setPeriodic(PING_MILLIS, t -> send("ping", new JsonObject().put("at", System.currentTimeMillis())));
      response.closeHandler(v -> close());
      response.exceptionHandler(err -> close());
      read();
    }

    private void read() {
      if (closed) {
        return;
      }
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      again = false;
      approvals.inbox(principal).compose(inbox -> unknown.of(principal)
          .map(calls -> inbox.put("needsReconciliation", calls.size()))).onComplete(ar -> {
        reading = false;
        if (ar.failed()) {
          send("error", new JsonObject().put("code", "JOURNAL_UNAVAILABLE")
              .put("message", "the journal is unavailable; the inbox shown may be out of date"));
          lastSent = null;
        } else {
          String encoded = ar.result().encode();
          if (!encoded.equals(lastSent)) {
            lastSent = encoded;
            write("inbox", encoded);
          }
        }
        if (again) {
          read();
        }
      });
    }

    private void send(String type, JsonObject data) {
      write(type, data.encode());
    }

    private void write(String type, String data) {
      if (!closed) {
        response.write("event: " + type + "\ndata: " + data + "\n\n");
      }
    }

    private void close() {
      if (closed) {
        return;
      }
      closed = true;
      vertx.cancelTimer(poll);
      vertx.cancelTimer(ping);
      consumers.forEach(MessageConsumer::unregister);
    }
  }
}
