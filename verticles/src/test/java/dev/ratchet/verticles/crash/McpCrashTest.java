package dev.ratchet.verticles.crash;

import dev.ratchet.connectors.mcp.TestMcpServer;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.testing.Await;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.UUID;

import static dev.ratchet.runtime.testing.Closeables.closeStarted;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Crash test of an MCP write tool: the runtime runs in a child JVM connected over streamable
 * HTTP to a real MCP server in this JVM, which survives the crash and counts calls. The tool
 * {@code hold_message} has no annotations, so it is a non_idempotent_write; it applies its effect
 * and then holds its answer, and the child is killed with SIGKILL while it waits.
 */
class McpCrashTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private final String session = "mcp-crash-" + UUID.randomUUID().toString().substring(0, 8);
  private Server mcp;
  private ChildRuntime child;

  @BeforeEach
  void start() throws Exception {
    TestMcpServer.HELD.set(0);
    TestMcpServer.holdAnswers();
    TestMcpServer.SENT.set(0);
    mcp = TestMcpServer.startHttp(0, false);
    child = startChild();
  }

  @AfterEach
  void stop() throws Exception {
    closeStarted(child);
    TestMcpServer.releaseHeld();
    mcp.stop();
  }

  private ChildRuntime startChild() throws Exception {
    return new ChildRuntime(ConnectorCrashNode.class, REDIS.url(), REDIS.keyPrefix(), "mcp",
        "http://127.0.0.1:" + TestMcpServer.port(mcp) + "/mcp");
  }

  private void submit(Turn turn) throws Exception {
    child.send(new JsonObject().put("cmd", "submit").put("agent", "mcp").put("session", session)
        .put("turn", turn.toJson()));
  }

  @Test
  void anMcpWriteInFlightAtTheCrashEndsOutcomeUnknownAndIsNeverCalledAgain() throws Exception {
    submit(new Turn("t1", List.of(new ToolCall("hold_message", new JsonObject().put("text", "deploy done")),
        new ToolCall("send_message", new JsonObject().put("text", "and tell the team")))));
    Await.until(() -> TestMcpServer.HELD.get() == 1, 30);

    child.kill();
    // the server finishes the call, but nobody is left to hear the answer; a call sent again
    // would now be answered at once
    TestMcpServer.releaseHeld();
    child = startChild();

    JsonArray results = child.awaitResult("t1", 60).getJsonArray("results");
    JsonObject held = results.getJsonObject(0);
    assertThat(held.getString("effectClass")).isEqualTo("non_idempotent_write");
    assertThat(held.getString("outcome")).isEqualTo("outcome_unknown");
    assertThat(held.getString("error")).contains("not sent again");
    // the later write of the turn is skipped, not sent
    JsonObject later = results.getJsonObject(1);
    assertThat(later.getString("outcome")).isEqualTo("failed");
    assertThat(later.getBoolean("skipped")).isTrue();
    assertThat(TestMcpServer.HELD.get()).isEqualTo(1);
    assertThat(TestMcpServer.SENT.get()).isZero();
  }
}
