package dev.ratchet.server.impl;

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

    assertRunsOn(TransportChoice.of(null), true, "epoll", "Linux epoll (Netty's native transport)");
  }

  @Test
  void nioIsTheJdksTransportWhereverItRuns() {
    assertRunsOn(TransportChoice.of(" NIO "), false, "nio", "the JDK's NIO (node.transport: nio)");
  }

  @Test
  void anUnknownTransportIsRefusedWithTheValuesThatExist() {
    assertThatThrownBy(() -> TransportChoice.of("io_uring"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the network transport is 'native' or 'nio', not 'io_uring'");
  }

  /** The Vert.x the choice builds really runs on the transport the choice names and describes. */
  private static void assertRunsOn(TransportChoice choice, boolean nativeTransport, String name, String description) {
    Vertx vertx = choice.vertx();
    try {
      assertThat(vertx.isNativeTransportEnabled()).isEqualTo(nativeTransport);
      assertThat(choice.isNative()).isEqualTo(nativeTransport);
      assertThat(choice.name()).isEqualTo(name);
      assertThat(choice.describe()).isEqualTo(description);
    } finally {
      await(vertx.close());
    }
  }
}
