package dev.ratchet.verticles;

import dev.ratchet.runtime.journal.JournalOptions;
import dev.ratchet.runtime.journal.RedisJournal;
import io.vertx.core.Vertx;
import io.vertx.core.transport.Transport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Path;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** A journal that cannot be opened says where and why, in words, and never with its password. */
class JournalOpenErrorTest {

  @TempDir
  Path tmp;

  @Test
  void aSocketThatIsGoneIsNamedWithAReasonAndThePasswordHidden() {
    assertOpenFailsInWords(tmp.resolve("redis.sock").toString());
  }

  @Test
  void aSocketNobodyListensOnIsNamedWithAReasonAndThePasswordHidden() throws Exception {
    // what a server killed with -9 leaves: its socket file, with nobody behind it
    Path socket = tmp.resolve("stale.sock");
    try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      server.bind(UnixDomainSocketAddress.of(socket));
    }
    assertOpenFailsInWords(socket.toString());
  }

  @Test
  void aServerThatHangsUpIsNamedWithAReason() throws Exception {
    Path socket = tmp.resolve("hangs-up.sock");
    try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      server.bind(UnixDomainSocketAddress.of(socket));
      Thread hangUp = new Thread(() -> {
        try {
          while (true) {
            server.accept().close();
          }
        } catch (java.io.IOException e) {
          // the test is over
        }
      });
      hangUp.setDaemon(true);
      hangUp.start();
      assertOpenFailsInWords(socket.toString());
    }
  }

  @Test
  void aRatchetDeployedWithoutARedisUrlAsksForOne() {
    // a library never starts a redis-server of its own: only `ratchet run` does (docs/ARCHITECTURE.md, Modules)
    Vertx vertx = Vertx.vertx();
    try {
      Throwable error = catchThrowable(() -> await(RatchetNode.deploy(vertx, RatchetOptions.create())));

      assertThat(error).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("a Redis URL is required (redis.url or RATCHET_REDIS_URL)");
    } finally {
      await(vertx.close());
    }
  }

  private static void assertOpenFailsInWords(String socket) {
    Transport epoll = Transport.EPOLL != null && Transport.EPOLL.available() ? Transport.EPOLL : Transport.NIO;
    for (Transport onTransport : new Transport[] {Transport.NIO, epoll}) {
      String transport = onTransport.name();
      Vertx vertx = Vertx.builder().withTransport(onTransport).build();
      try {
        Throwable error = catchThrowable(() -> await(RedisJournal.open(vertx,
            JournalOptions.of("unix://" + socket + "?password=s3cret-value"))));

        assertThat(error).as(transport).isNotNull();
        assertThat(error.getMessage()).as(transport)
            .startsWith("cannot open the journal at unix://" + socket + "?password=***: ")
            .doesNotEndWith(": null")
            .doesNotContain("s3cret-value");
      } finally {
        await(vertx.close());
      }
    }
  }
}
