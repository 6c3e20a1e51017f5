package dev.ratchet.verticles.impl;

import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/** A session's step events can be heard while a counted consumer or a listener of every address is there. */
class EventAudienceTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    await(vertx.close());
  }

  @Test
  void anAddressWithACountedConsumerHasAnAudienceFromItsRegistrationUntilItsLastConsumerLeaves() {
    EventAudience audience = new EventAudience(vertx);
    assertThat(audience.any("ratchet.session.s-1.events")).isFalse();

    MessageConsumer<Object> consumer = EventAudience.consumer(vertx, "ratchet.session.s-1.events", m -> { });
    MessageConsumer<Object> second = EventAudience.consumer(vertx, "ratchet.session.s-1.events", null);

    assertThat(audience.any("ratchet.session.s-1.events")).isTrue();
    assertThat(audience.any("ratchet.session.s-2.events")).isFalse();
    await(consumer.unregister());
    await(consumer.unregister());
    assertThat(audience.any("ratchet.session.s-1.events")).isTrue();
    await(second.unregister());
    assertThat(audience.any("ratchet.session.s-1.events")).isFalse();
  }

  @Test
  void aListenerOfEveryAddressHearsEverySessionUntilItStops() {
    EventAudience audience = new EventAudience(vertx);

    Runnable stop = EventAudience.everyAddress(vertx);

    assertThat(audience.any("ratchet.session.s-1.events")).isTrue();
    stop.run();
    stop.run();
    assertThat(audience.any("ratchet.session.s-1.events")).isFalse();
  }

  @Test
  void eachVertxCountsItsOwnListeners() {
    Vertx other = Vertx.vertx();
    try {
      EventAudience.everyAddress(other);

      assertThat(new EventAudience(other).any("ratchet.session.s-1.events")).isTrue();
      assertThat(new EventAudience(vertx).any("ratchet.session.s-1.events")).isFalse();
    } finally {
      await(other.close());
    }
  }
}
