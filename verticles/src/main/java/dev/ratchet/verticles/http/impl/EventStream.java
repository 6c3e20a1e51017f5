package dev.ratchet.verticles.http.impl;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.verticles.Addresses;
import dev.ratchet.verticles.Ratchet;
import dev.ratchet.verticles.http.Role;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
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
public final class EventStream {

  static final long POLL_MILLIS = 5_000;
  static final long HEARTBEAT_MILLIS = 15_000;
  /** The ids this stream sends: a journal entry id, with the event's index inside the entry when it has several. */
  private static final java.util.regex.Pattern EVENT_ID = java.util.regex.Pattern.compile("\\d{1,19}-\\d{1,19}(\\.\\d{1,9})?");

  private final Vertx vertx;
  private final Ratchet ratchet;
  private final SessionAccess access;

  public EventStream(Vertx vertx, Ratchet ratchet, SessionAccess access) {
    this.vertx = vertx;
    this.ratchet = ratchet;
    this.access = access;
  }

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
    response.setChunked(true).putHeader("Content-Type", "text/event-stream; charset=utf-8")
        .putHeader("Cache-Control", "no-store").putHeader("X-Accel-Buffering", "no");
    response.write(": ratchet session " + sessionId + "\n\n");
    new Pump(sessionId, lastEventId, response).start();
  }

  /** One client's stream: reads after the last sent id whenever woken, one read at a time. */
  private final class Pump {
    private final String sessionId;
    private final HttpServerResponse response;
    private String lastId;
    private boolean reading;
    private boolean again;
    private boolean closed;
    private MessageConsumer<Object> consumer;
    private long poll;
    private long heartbeat;

    Pump(String sessionId, String lastId, HttpServerResponse response) {
      this.sessionId = sessionId;
      this.lastId = lastId == null || lastId.isBlank() ? null : lastId;
      this.response = response;
    }

    void start() {
      consumer = vertx.eventBus().consumer(Addresses.events(sessionId), msg -> read());
      poll = vertx.setPeriodic(POLL_MILLIS, t -> read());
      heartbeat = vertx.setPeriodic(HEARTBEAT_MILLIS, t -> {
        if (!closed) {
          response.write(": keep-alive\n\n");
        }
      });
      response.closeHandler(v -> close());
      response.exceptionHandler(err -> close());
      consumer.completion().onComplete(v -> read());
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
      ratchet.journal().events(sessionId, lastId, JournalReader.PAGE)
          .compose(page -> JournalReader.withResults(ratchet.journal(), sessionId, page))
          .onComplete(ar -> {
            reading = false;
            if (closed) {
              return;
            }
            if (ar.failed()) {
              response.write("event: error\ndata: " + new JsonObject().put("code", "JOURNAL_UNAVAILABLE").encode()
                  + "\n\n");
              return;
            }
            for (JsonObject e : ar.result()) {
              lastId = e.getString("id");
              response.write("id: " + lastId + "\nevent: " + e.getString("type", "event") + "\ndata: " + e.encode()
                  + "\n\n");
            }
            if (again || ar.result().size() == JournalReader.PAGE) {
              read();
            }
          });
    }

    private void close() {
      if (closed) {
        return;
      }
      closed = true;
      vertx.cancelTimer(poll);
      vertx.cancelTimer(heartbeat);
      consumer.unregister();
    }
  }
}
