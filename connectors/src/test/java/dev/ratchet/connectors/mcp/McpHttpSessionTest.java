package dev.ratchet.connectors.mcp;

import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolResult;
import dev.ratchet.host.FreePorts;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.ratchet.connectors.mcp.TestInvocations.named;
import static dev.ratchet.connectors.mcp.TestInvocations.of;
import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/** Streamable HTTP sessions that the server no longer knows, against the SDK's server (404) and the reference server (400). */
class McpHttpSessionTest {

  private Vertx vertx;
  private McpToolSource source;
  private Server jetty;
  private Process node;

  @BeforeEach
  void setUp() {
    vertx = Vertx.vertx();
    TestMcpServer.SENT.set(0);
  }

  @AfterEach
  void tearDown() throws Exception {
    if (source != null) {
      await(source.close());
    }
    if (jetty != null) {
      jetty.stop();
    }
    if (node != null) {
      node.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    await(vertx.close());
  }

  private static McpServerConfig.Builder http(int port) {
    return McpServerConfig.http("remote", "http://127.0.0.1:" + port + "/mcp")
        .requestTimeout(Duration.ofSeconds(20))
        .reconnectBackoff(Duration.ofMillis(100), Duration.ofMillis(300))
        .healthCheckInterval(Duration.ZERO);
  }

  /*
   * The SDK re-initialises on its own when any request meets the unknown session, and a request of
   * the same moment may then go out on the new session after the SDK gave up waiting for it: that
   * one did run, and ends "may have run". So each test restarts the server a few times and holds
   * the rules in every round: never sent twice, never "did not run" when it ran; and at least one
   * round shows the refused request sent again on the new session.
   */
  private static final int ROUNDS = 4;

  @Test
  void aWriteOnASessionTheRestartedServerAnswers404ForIsSentOnANewSessionAndNeverTwice() throws Exception {
    // no listening stream: only the calls of the test reach the server
    refusedWritesAreSentAgainOnANewSession(TestMcpServer::startHttpWithoutListeningStream);
  }

  @Test
  void aWriteOnASessionTheRestartedServerAnswers400ForIsSentOnANewSessionAndNeverTwice() throws Exception {
    // the reference server (the TypeScript SDK's) answers 400 "No valid session ID provided" where the spec says 404
    refusedWritesAreSentAgainOnANewSession(TestMcpServer::startHttpAnswering400ForUnknownSessions);
  }

  /** A server started on a port (0: a free one). */
  private interface ServerStart {
    Server on(int port) throws Exception;
  }

  private void refusedWritesAreSentAgainOnANewSession(ServerStart start) throws Exception {
    jetty = start.on(0);
    int port = TestMcpServer.port(jetty);
    source = McpToolSource.create(vertx, http(port).build());
    List<Tool> tools = await(source.tools(vertx));

    int resent = 0;
    for (int round = 0; round < ROUNDS; round++) {
      onALiveSession(named(tools, "get_weather"));
      jetty.stop();
      jetty = start.on(port);
      resent += restartedRound(named(tools, "send_message"), round);
    }
    assertThat(resent).as("rounds in which the refused write was sent on the new session").isPositive();
  }

  /** Waits until a read answers, so that the source holds a session of the server running now. */
  private static void onALiveSession(Tool read) throws Exception {
    long until = System.currentTimeMillis() + 10_000;
    while (System.currentTimeMillis() < until) {
      ToolResult r = read.invoke(of(new JsonObject().put("city", "Lyon"))).toCompletionStage().toCompletableFuture()
          .handle((ok, err) -> ok).get(30, TimeUnit.SECONDS);
      if (r != null && r.outcome() == Outcome.SUCCEEDED) {
        return;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no session with the server within 10 s");
  }

  /** One call after a restart: 1 when it was sent on the new session and answered, else 0; never sent twice. */
  private static int restartedRound(Tool send, int round) throws Exception {
    TestMcpServer.SENT.set(0);
    long start = System.nanoTime();
    Throwable failure = send.invoke(of(new JsonObject().put("text", "after restart " + round)))
        .toCompletionStage().toCompletableFuture().handle((r, err) -> err).get(30, TimeUnit.SECONDS);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    assertThat(TestMcpServer.SENT.get()).isLessThanOrEqualTo(1);
    if (failure == null) {
      assertThat(TestMcpServer.SENT.get()).isEqualTo(1);
      return 1;
    }
    if (failure instanceof dev.ratchet.runtime.ToolNotSentException) {
      assertThat(TestMcpServer.SENT.get()).isZero();
    }
    return 0;
  }

  @Test
  void aCallInFlightToAServerThatStopsAnsweringFailsWithinThePingTimeNotTheRequestTimeout() throws Exception {
    int port = FreePorts.next();
    node = startEverything(port);
    source = McpToolSource.create(vertx, http(port).inFlightCheck(Duration.ofMillis(500)).build());
    Tool slow = named(await(source.tools(vertx)), "trigger-long-running-operation");
    io.vertx.core.Future<ToolResult> call = slow.invoke(of(new JsonObject().put("duration", 15).put("steps", 3)));
    Thread.sleep(300);

    // frozen, not closed: its connections stay open and nothing answers on them (a hung host, a partition)
    long start = System.nanoTime();
    assertThat(new ProcessBuilder("kill", "-STOP", String.valueOf(node.pid())).start().waitFor()).isZero();
    try {
      Throwable failure = call.toCompletionStage().toCompletableFuture()
          .handle((r, err) -> err).get(30, TimeUnit.SECONDS);
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
      // it had reached the server: not "did not run"
      assertThat(failure).isNotNull().isNotInstanceOf(dev.ratchet.runtime.ToolNotSentException.class)
          .hasMessageContaining("stopped answering pings while the call was in flight");
      assertThat(source.health().healthy()).isFalse();
    } finally {
      new ProcessBuilder("kill", "-CONT", String.valueOf(node.pid())).start().waitFor();
    }
  }


  private static Process startEverything(int port) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("node", EverythingMcpServer.entryPoint().toString(), "streamableHttp")
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.environment().put("PORT", String.valueOf(port));
    Process p = pb.start();
    long until = System.currentTimeMillis() + 15_000;
    while (System.currentTimeMillis() < until) {
      try (Socket ignored = new Socket("127.0.0.1", port)) {
        return p;
      } catch (IOException e) {
        Thread.sleep(50);
      }
    }
    p.destroyForcibly();
    throw new IllegalStateException("the reference server did not listen on port " + port);
  }
}
