package dev.ratchet.connectors.mcp;

import dev.ratchet.runtime.Tool;
import dev.ratchet.host.FreePorts;
import io.vertx.core.Future;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.ratchet.runtime.testing.Await.TIMEOUT_SECONDS;
import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A server still starting when its tools are first asked for: its start-up has its own timeout,
 * {@code startupTimeout}, apart from {@code requestTimeout}, and registration keeps trying within it.
 */
class McpStartupTest extends McpSourceTestBase {

  private Server jetty;

  @AfterEach
  void stopJetty() throws Exception {
    if (jetty != null) {
      jetty.stop();
    }
  }

  @Test
  void aStdioServerSlowerToStartThanTheRequestTimeoutIsListedWithinTheStartupTimeout() {
    // the test server behind a shell that waits 2 s before starting it: longer than any request may take
    McpServerConfig server = McpStdioToolSourceTest.stdioServer("slow").build();
    List<String> command = new java.util.ArrayList<>(List.of("-c", "sleep 2 && exec \"$0\" \"$@\"", server.command()));
    command.addAll(server.args());
    McpServerConfig.Builder slow = McpServerConfig.stdio("slow", "sh", command.toArray(String[]::new))
        .requestTimeout(Duration.ofSeconds(1)).startupTimeout(Duration.ofSeconds(60));
    server.plainEnv().forEach(slow::env);
    server.env().forEach(slow::env);
    source = McpToolSource.create(vertx, slow.build());
    List<Tool> tools = await(source.tools(vertx));
    assertThat(tools).extracting(Tool::name).contains("get_weather");
  }

  @Test
  void anHttpServerThatStartsListeningLateIsListedOnceItAnswers() throws Exception {
    int port = FreePorts.next();
    source = McpToolSource.create(vertx, McpServerConfig.http("late", "http://127.0.0.1:" + port + "/mcp")
        .requestTimeout(Duration.ofSeconds(5)).startupTimeout(Duration.ofSeconds(30))
        .reconnectBackoff(Duration.ofMillis(100), Duration.ofMillis(300)).build());
    Future<List<Tool>> listed = source.tools(vertx);
    // the first attempts are refused: nothing listens yet
    long until = System.currentTimeMillis() + 10_000;
    while (source.health().reconnectAttempts() < 2 && System.currentTimeMillis() < until) {
      Thread.sleep(20);
    }
    assertThat(listed.isComplete()).as("registration gave up on a server still starting").isFalse();
    jetty = TestMcpServer.startHttp(port, false);
    assertThat(await(listed)).extracting(Tool::name).contains("get_weather");
  }

  @Test
  void anHttpServerThatNeverStartsFailsOnceTheStartupTimeoutIsOver() throws Exception {
    int port = FreePorts.next();
    source = McpToolSource.create(vertx, McpServerConfig.http("never", "http://127.0.0.1:" + port + "/mcp")
        .startupTimeout(Duration.ofMillis(800)).reconnectBackoff(Duration.ofMillis(100), Duration.ofMillis(200))
        .build());
    long start = System.currentTimeMillis();
    assertThatThrownBy(() -> source.tools(vertx)
        .await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).hasMessageContaining("could not connect");
    assertThat(System.currentTimeMillis() - start).isGreaterThanOrEqualTo(800);
  }
}
