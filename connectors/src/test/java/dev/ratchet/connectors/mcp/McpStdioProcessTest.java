package dev.ratchet.connectors.mcp;

import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolNotSentException;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.ratchet.runtime.testing.Await.TIMEOUT_SECONDS;
import static dev.ratchet.connectors.mcp.McpStdioToolSourceTest.stdioServer;
import static dev.ratchet.connectors.mcp.TestInvocations.named;
import static dev.ratchet.connectors.mcp.TestInvocations.of;
import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A stdio MCP server's process as a tool source sees it: health, a call while it is gone, the reconnect. */
class McpStdioProcessTest extends McpSourceTestBase {

  @Test
  void aServerProcessThatExitsMakesToolsFailAsNotRunThenComesBackAfterReconnect() throws Exception {
    source = McpToolSource.create(vertx, stdioServer("local").build());
    List<Tool> tools = await(source.tools(vertx));
    Tool weather = named(tools, "get_weather");
    assertThat(await(weather.invoke(of(new JsonObject().put("city", "Oslo")))).outcome()).isEqualTo(Outcome.SUCCEEDED);

    long pid = Long.parseLong((String) await(named(tools, "pid").invoke(of(new JsonObject()))).value());
    ProcessHandle child = ProcessHandle.of(pid).orElseThrow();
    child.destroyForcibly();
    child.onExit().get(10, TimeUnit.SECONDS);

    long until = System.currentTimeMillis() + 5_000;
    while (source.health().healthy() && System.currentTimeMillis() < until) {
      Thread.sleep(20);
    }
    assertThat(source.health().status()).isEqualTo("unhealthy");
    assertThat(source.health().lastError()).contains("exited");

    // between the exit and the reconnect, a call provably never leaves
    boolean sawNotSent = false;
    until = System.currentTimeMillis() + 10_000;
    while (System.currentTimeMillis() < until) {
      try {
        ToolResult r = await(weather.invoke(of(new JsonObject().put("city", "Oslo"))));
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCEEDED);
        break;
      } catch (ToolNotSentException e) {
        sawNotSent = true;
        assertThat(e.getMessage()).startsWith("the tool did not run, so it is safe to call again");
        // a retry waits for the reconnect instead of failing again at once
        assertThat(e.retryAfterMillis()).isPositive();
        Thread.sleep(50);
      }
    }
    assertThat(sawNotSent).isTrue();
    assertThat(source.health().healthy()).isTrue();
  }

  @Test
  void aServerThatCannotStartIsUnhealthyAndItsToolsAreNeverOffered() {
    source = McpToolSource.create(vertx, McpServerConfig.stdio("broken", "/nonexistent/mcp-server")
        .requestTimeout(Duration.ofSeconds(2)).startupTimeout(Duration.ofSeconds(2))
        .reconnectBackoff(Duration.ofSeconds(5), Duration.ofSeconds(5)).build());
    assertThatThrownBy(() -> source.tools(vertx)
        .await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).hasMessageContaining("could not connect");
    assertThat(source.health().healthy()).isFalse();
    assertThat(source.health().lastError()).isNotBlank();
    assertThat(source.health().reconnectAttempts()).isGreaterThanOrEqualTo(1);
  }

  @Test
  void closingTheSourceEndsItsServerProcess() throws Exception {
    source = McpToolSource.create(vertx, stdioServer("local").build());
    List<Tool> tools = await(source.tools(vertx));
    long pid = Long.parseLong((String) await(named(tools, "pid").invoke(of(new JsonObject()))).value());
    ProcessHandle child = ProcessHandle.of(pid).orElseThrow();

    source.close().toCompletionStage().toCompletableFuture().get(15, TimeUnit.SECONDS);
    source = null;

    child.onExit().get(15, TimeUnit.SECONDS);
    assertThat(child.isAlive()).isFalse();
  }
}
