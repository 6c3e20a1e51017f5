package dev.ratchet.verticles;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.embedded.RedisServerProcess;
import dev.ratchet.runtime.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.transport.Transport;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** A runtime whose journal is a Redis on the same host, reached over its Unix domain socket. */
class UnixSocketJournalTest {

  private RedisServerProcess server;
  private Vertx vertx;
  private RatchetNode ratchet;
  private final AtomicInteger writes = new AtomicInteger();

  @BeforeEach
  void startRedis() throws Exception {
    server = RedisServerProcess.startTemporary("ratchet-socket-journal", "everysec");
    assumeTrue(server.unixSocketUrl().isPresent(), "no Unix socket on this platform");
  }

  private void deployOn(Vertx vertx) {
    this.vertx = vertx;
    ratchet = await(RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl(server.unixSocketUrl().get())
        .keyPrefix("uds").sessionIdleMillis(300)));
    FunctionToolSource tools = FunctionToolSource.create("shop")
        .read("look", "look", new io.vertx.core.json.JsonObject().put("type", "object"),
            inv -> Future.succeededFuture("order"))
        .tool(FunctionToolSource.define("cancel", EffectClass.NON_IDEMPOTENT_WRITE).handler(inv -> {
          writes.incrementAndGet();
          return Future.succeededFuture("cancelled");
        }));
    await(ratchet.register(AgentDefinition.builder("shop").toolSource(tools).build()));
  }

  @AfterEach
  void close() {
    if (ratchet != null) {
      await(ratchet.close());
    }
    if (vertx != null) {
      await(vertx.close());
    }
    server.close();
  }

  @Test
  void turnsAreJournaledOverTheSocketAndAResubmittedWriteIsNotSentTwice() {
    deployOn(Vertx.vertx());
    assertTurnJournaledOverTheSocketOnce();
  }

  @Test
  void onLinuxEpollTheSocketJournalsTheSameTurnAndItsWriteOnce() {
    Transport epoll = Transport.EPOLL;
    assumeTrue(epoll != null && epoll.available(), "Netty's native epoll does not load here");
    Vertx onEpoll = Vertx.builder().withTransport(epoll).build();
    assertThat(onEpoll.isNativeTransportEnabled()).isTrue();
    deployOn(onEpoll);
    assertTurnJournaledOverTheSocketOnce();
  }

  private void assertTurnJournaledOverTheSocketOnce() {
    Turn turn = Turn.of("t1", new ToolCall("look", null), new ToolCall("cancel", null));
    TurnResult first = await(ratchet.submit("shop", "s-uds", turn));
    assertThat(first.call(1).outcome().wireName()).isEqualTo("succeeded");
    // passivated, so that the resubmission is answered from what the journal holds
    Await.until(() -> ratchet.activeSessions() == 0, 10);

    TurnResult again = await(ratchet.submit("shop", "s-uds", turn));

    assertThat(again.toJson()).isEqualTo(first.toJson());
    assertThat(writes.get()).isEqualTo(1);
    assertThat(socketClients()).as("the runtime's connections to Redis over its socket").isPositive();
  }

  /** Clients connected over a Unix socket, as Redis lists them to a client that came over TCP. */
  private long socketClients() {
    Redis tcp = Redis.createClient(vertx, server.url());
    try {
      String list = await(tcp.send(Request.cmd(Command.CLIENT).arg("LIST"))).toString();
      return Arrays.stream(list.split("\n")).filter(line -> line.contains(" flags=U")).count();
    } finally {
      tcp.close();
    }
  }
}
