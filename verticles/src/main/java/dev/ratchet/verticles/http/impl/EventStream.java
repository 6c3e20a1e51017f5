package dev.ratchet.verticles.http.impl;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.verticles.Addresses;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.http.JournalReader;
import dev.ratchet.verticles.http.Role;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code GET /api/sessions/:id/events}: a server-sent-events stream of the session's journal
 * events. The journal is the source: a live event-bus message only wakes the stream up to read
 * what was appended after the last event sent, so replay and live events never duplicate or skip,
 * and each event's SSE id is its journal id ({@code Last-Event-ID} resumes after it). A slow poll
 * catches appends whose live message went elsewhere (another node, a reconnect).
 */
public record EventStream(Vertx vertx, RatchetNode ratchet, SessionAccess access) {

  static final long POLL_MILLIS = 5_000;
  static final long HEARTBEAT_MILLIS = 15_000;
  /** The ids this stream sends: a journal entry id, with the event's index inside the entry when it has several. */
  private static final java.util.regex.Pattern EVENT_ID = java.util.regex.Pattern.compile("\\d{1,19}-\\d{1,19}(\\.\\d{1,9})?");

  public void mount(Router router) {
    router.get("/api/sessions/:sessionId/events").handler(AuthHandler.require(Role.Permission.READ_RESULTS))
        .handler(this::stream);
  }

  private void stream(RoutingContext ctx) {
    String sessionId = ctx.pathParam("sessionId");
    String lastEventId = ctx.request().getHeader("Last-Event-ID");
    if (lastEventId != null && !lastEventId.isBlank() && !EVENT_ID.matcher(lastEventId).matches()) {
      Replies.error(ctx, ErrorCode.INVALID_REQUEST, "Last-Event-ID must be an id this stream sent, like 1700000000000-0");
      return;
    }
    // checked before the stream opens, so a session that is not the caller's answers a JSON 404
    access.visible(AuthHandler.principal(ctx), sessionId).onComplete(ar -> {
      if (ar.failed()) {
        Replies.fail(ctx, ar.cause());
      } else if (!ctx.response().closed()) {
        open(ctx, sessionId);
      }
    });
  }

  private void open(RoutingContext ctx, String sessionId) {
    String lastEventId = ctx.request().getHeader("Last-Event-ID");
    HttpServerResponse response = ctx.response();
    SsePump.open(response, ": ratchet session " + sessionId + "\n\n");
    Pump pump = new Pump(sessionId, lastEventId, response);
    pump.every(HEARTBEAT_MILLIS, () -> pump.write(": keep-alive\n\n"));
    pump.start(POLL_MILLIS, Addresses.events(sessionId));
  }

  /** One client's stream: reads after the last sent id. */
  private final class Pump extends SsePump {
    private final String sessionId;
    private String lastId;

    Pump(String sessionId, String lastId, HttpServerResponse response) {
      super(vertx, response);
      this.sessionId = sessionId;
      this.lastId = lastId == null || lastId.isBlank() ? null : lastId;
    }

    @Override
    protected Future<Boolean> read() {
      return ratchet.journal().events(sessionId, lastId, JournalReader.PAGE)
          .compose(page -> JournalReader.withResults(ratchet.journal(), sessionId, page))
          .map(events -> {
            for (JsonObject e : events) {
              lastId = e.getString("id");
              write("id: " + lastId + "\nevent: " + e.getString("type", "event") + "\ndata: " + e.encode() + "\n\n");
            }
            return events.size() == JournalReader.PAGE;
          })
          .otherwise(err -> {
            event("error", new JsonObject().put("code", "JOURNAL_UNAVAILABLE").encode());
            return false;
          });
    }
  }
}
