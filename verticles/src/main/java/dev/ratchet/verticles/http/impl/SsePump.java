package dev.ratchet.verticles.http.impl;

import dev.ratchet.verticles.impl.EventAudience;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.HttpServerResponse;

import java.util.ArrayList;
import java.util.List;

/**
 * One client's server-sent-events stream: reads its source whenever woken (an event-bus message or
 * a slow poll), one read at a time; a wake during a read reads again once it is done. Everything
 * stops when the client goes.
 */
abstract class SsePump {

  private final Vertx vertx;
  private final HttpServerResponse response;
  private final List<MessageConsumer<Object>> consumers = new ArrayList<>();
  private final List<Long> timers = new ArrayList<>();
  private boolean reading;
  private boolean again;
  private boolean closed;

  SsePump(Vertx vertx, HttpServerResponse response) {
    this.vertx = vertx;
    this.response = response;
  }

  /** Makes the response an event stream, unbuffered by proxies, and sends {@code first}. */
  static void open(HttpServerResponse response, String first) {
    response.setChunked(true).putHeader("Content-Type", "text/event-stream; charset=utf-8")
        .putHeader("Cache-Control", "no-store").putHeader("X-Accel-Buffering", "no");
    response.write(first);
  }

  /** Reads once and writes what is new; true when there may be more to read at once. */
  protected abstract Future<Boolean> read();

  /** Wakes on each message to these addresses and every {@code pollMillis}; reads first once the consumers are registered. */
  final void start(long pollMillis, String... addresses) {
    List<Future<Void>> registered = new ArrayList<>();
    for (String address : addresses) {
      MessageConsumer<Object> consumer = EventAudience.consumer(vertx, address, msg -> wake());
      consumers.add(consumer);
      registered.add(consumer.completion());
    }
    every(pollMillis, this::wake);
    response.closeHandler(v -> close());
    response.exceptionHandler(err -> close());
    Future.join(registered).onComplete(v -> wake());
  }

  /** Runs {@code action} every {@code millis} while the stream is open. */
  final void every(long millis, Runnable action) {
    timers.add(vertx.setPeriodic(millis, t -> action.run()));
  }

  /** Writes an SSE frame unless the client has gone. */
  final void write(String frame) {
    if (!closed) {
      response.write(frame);
    }
  }

  /** Writes an event of this type with this data. */
  final void event(String type, String data) {
    write("event: " + type + "\ndata: " + data + "\n\n");
  }

  private void wake() {
    if (closed) {
      return;
    }
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    again = false;
    read().onComplete(ar -> {
      reading = false;
      if (!closed && (again || (ar.succeeded() && ar.result()))) {
        wake();
      }
    });
  }

  private void close() {
    if (closed) {
      return;
    }
    closed = true;
    timers.forEach(vertx::cancelTimer);
    consumers.forEach(MessageConsumer::unregister);
  }
}
