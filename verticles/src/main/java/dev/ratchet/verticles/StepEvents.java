package dev.ratchet.verticles;

import dev.ratchet.verticles.impl.EventAudience;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;

/**
 * How an application hears a session's step events ({@link Addresses#events}). A session builds
 * and publishes an event only when something on its Vert.x listens, and Vert.x does not tell
 * whether an address has consumers: a listener says so here (docs/EVENT-BUS.md, "Who hears step
 * events"). On a clustered event bus, or with Vert.x's metrics on, every event is published.
 */
public final class StepEvents {

  private StepEvents() {
  }

  /**
   * A consumer of the step events of {@code sessionId}; the session publishes them for as long as
   * the consumer is registered ({@link MessageConsumer#unregister} ends it).
   */
  public static MessageConsumer<JsonObject> consumer(Vertx vertx, String sessionId,
                                                     Handler<Message<JsonObject>> handler) {
    return EventAudience.consumer(vertx, Addresses.events(sessionId), handler);
  }

  /**
   * Has every session of this Vert.x publish its step events, for a listener Ratchet cannot count:
   * an event-bus interceptor, a bridge, or consumers made with {@code vertx.eventBus().consumer}.
   * Running the answer ends it (once is enough).
   */
  public static Runnable publishAll(Vertx vertx) {
    return EventAudience.everyAddress(vertx);
  }
}
