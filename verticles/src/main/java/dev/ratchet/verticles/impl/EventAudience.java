package dev.ratchet.verticles.impl;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.impl.EventBusImpl;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Map;

/**
 * Whether a message published to an address can reach anyone: a consumer of the address, an
 * outbound interceptor (which sees every message sent), the event bus's metrics, or, on a clustered
 * event bus, a consumer on another member. A message that can reach no one is one Vert.x would
 * drop: the session then skips publishing it, and the event bus's work for a message without a
 * consumer (a failure built per message).
 *
 * <p>Vert.x tells neither which addresses have consumers nor whether interceptors are installed,
 * so this reads two of its event bus's fields; where they are not there (another version), every
 * message is published.
 */
final class EventAudience {

  private static final VarHandle HANDLERS;
  private static final VarHandle INTERCEPTORS;

  static {
    VarHandle handlers = null;
    VarHandle interceptors = null;
    try {
      MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(EventBusImpl.class, MethodHandles.lookup());
      handlers = lookup.findVarHandle(EventBusImpl.class, "handlerMap", java.util.concurrent.ConcurrentMap.class);
      interceptors = lookup.findVarHandle(EventBusImpl.class, "outboundInterceptors", Handler[].class);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      handlers = null;
    }
    HANDLERS = handlers;
    INTERCEPTORS = interceptors;
  }

  private final EventBus bus;
  /** The bus's consumers by address; null when every message is published. */
  private final Map<?, ?> consumers;

  EventAudience(Vertx vertx) {
    this.bus = vertx.eventBus();
    // a clustered event bus (a subclass) has consumers on other members that this one cannot see
    this.consumers = HANDLERS != null && bus.getClass() == EventBusImpl.class ? (Map<?, ?>) HANDLERS.get(bus) : null;
  }

  /** Whether a message published to {@code address} now would reach a consumer, an interceptor or metrics. */
  boolean any(String address) {
    return consumers == null || consumers.containsKey(address) || ((Handler<?>[]) INTERCEPTORS.getVolatile(bus)).length > 0
        || ((EventBusImpl) bus).isMetricsEnabled();
  }
}
