package dev.ratchet.verticles.impl;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryContext;
import io.vertx.core.eventbus.MessageConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A session's events are published whenever anyone can hear them: a consumer of the session's
 * address, or an interceptor of every message; only a message Vert.x would drop is skipped.
 */
class EventAudienceTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    await(vertx.close());
  }

  @Test
  void anAddressWithAConsumerHasAnAudienceFromItsRegistrationUntilItLeaves() {
    EventAudience audience = new EventAudience(vertx);
    assertThat(audience.any("ratchet.session.s-1.events")).isFalse();

    MessageConsumer<Object> consumer = vertx.eventBus().consumer("ratchet.session.s-1.events", m -> { });

    assertThat(audience.any("ratchet.session.s-1.events")).isTrue();
    assertThat(audience.any("ratchet.session.s-2.events")).isFalse();
    await(consumer.unregister());
    assertThat(audience.any("ratchet.session.s-1.events")).isFalse();
  }

  @Test
  void anOutboundInterceptorHearsEveryAddress() {
    EventAudience audience = new EventAudience(vertx);
    Handler<DeliveryContext<Object>> interceptor = DeliveryContext::next;

    vertx.eventBus().addOutboundInterceptor(interceptor);

    assertThat(audience.any("ratchet.session.s-1.events")).isTrue();
    vertx.eventBus().removeOutboundInterceptor(interceptor);
    assertThat(audience.any("ratchet.session.s-1.events")).isFalse();
  }
}
