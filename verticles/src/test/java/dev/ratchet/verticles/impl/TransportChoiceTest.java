package dev.ratchet.verticles.impl;

import io.vertx.core.Vertx;
import org.junit.jupiter.api.Test;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class TransportChoiceTest {

  @Test
  void theDefaultOnX8664LinuxIsNettysNativeEpoll() {
    assumeTrue(System.getProperty("os.name").equals("Linux") && System.getProperty("os.arch").equals("amd64"),
        "the jar carries Netty's epoll library for x86-64 Linux only");
    TransportChoice choice = TransportChoice.of(null);

    Vertx vertx = choice.vertx();
    try {
      assertThat(choice.isNative()).isTrue();
      assertThat(vertx.isNativeTransportEnabled()).isTrue();
      assertThat(choice.describe()).isEqualTo("Linux epoll (Netty's native transport)");
    } finally {
      await(vertx.close());
    }
  }

  @Test
  void nioIsTheJdksTransportWhereverItRuns() {
    TransportChoice choice = TransportChoice.of(" NIO ");

    Vertx vertx = choice.vertx();
    try {
      assertThat(choice.isNative()).isFalse();
      assertThat(vertx.isNativeTransportEnabled()).isFalse();
      assertThat(choice.describe()).isEqualTo("the JDK's NIO (node.transport: nio)");
    } finally {
      await(vertx.close());
    }
  }

  @Test
  void anUnknownTransportIsRefusedWithTheValuesThatExist() {
    assertThatThrownBy(() -> TransportChoice.of("io_uring"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the network transport is 'native' or 'nio', not 'io_uring'");
  }
}
