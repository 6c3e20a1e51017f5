package dev.ratchet.verticles.impl;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.shareddata.LocalMap;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Who on one Vert.x hears the step events published to an address: a consumer counted here
 * ({@link dev.ratchet.verticles.StepEvents}, Ratchet's own streams and long polls), a listener of
 * every address ({@link #everyAddress}), Vert.x's metrics, or, on a clustered event bus, anyone,
 * since a consumer on another member is not counted here. A session builds and publishes an event
 * only when it can be heard (docs/EVENT-BUS.md, "Who hears step events").
 *
 * <p>Why counted: Vert.x tells no one which addresses have consumers. The counts live in the
 * Vert.x instance's local shared data, so each Vert.x has its own and they go with it.
 */
public final class EventAudience {

  private static final String COUNTS = "ratchet.stepEvents.listeners";
  /** The key counting listeners of every address; no event address is empty. */
  private static final String EVERY_ADDRESS = "";

  private final LocalMap<String, Integer> listeners;
  private final boolean always;

  EventAudience(Vertx vertx) {
    this.listeners = counts(vertx);
    this.always = vertx.isClustered() || vertx.isMetricsEnabled();
  }

  /** Whether a message published to {@code address} now can reach anyone. */
  boolean any(String address) {
    return always || listeners.containsKey(address) || listeners.containsKey(EVERY_ADDRESS);
  }

  /** A consumer of {@code address}, counted until it is unregistered; {@code handler} may be set later. */
  public static <T> MessageConsumer<T> consumer(Vertx vertx, String address, Handler<Message<T>> handler) {
    LocalMap<String, Integer> counts = counts(vertx);
    MessageConsumer<T> consumer = handler == null ? vertx.eventBus().consumer(address)
        : vertx.eventBus().consumer(address, handler);
    counts.merge(address, 1, Integer::sum);
    return new CountedConsumer<>(consumer, once(() -> leave(counts, address)));
  }

  /** Counts a listener of every address until the answer is run (once is enough; more runs do nothing). */
  public static Runnable everyAddress(Vertx vertx) {
    LocalMap<String, Integer> counts = counts(vertx);
    counts.merge(EVERY_ADDRESS, 1, Integer::sum);
    return once(() -> leave(counts, EVERY_ADDRESS));
  }

  private static LocalMap<String, Integer> counts(Vertx vertx) {
    return vertx.sharedData().getLocalMap(COUNTS);
  }

  private static void leave(LocalMap<String, Integer> counts, String address) {
    counts.computeIfPresent(address, (a, n) -> n == 1 ? null : n - 1);
  }

  private static Runnable once(Runnable action) {
    AtomicBoolean done = new AtomicBoolean();
    return () -> {
      if (done.compareAndSet(false, true)) {
        action.run();
      }
    };
  }
}
