package dev.ratchet.server.mcp;

import dev.ratchet.connectors.testing.SlackTestServer;
import dev.ratchet.server.RunApi;
import dev.ratchet.server.RunChild;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client of Ratchet's MCP endpoint whose write is in flight when {@code ratchet run} is killed
 * with SIGKILL: after the restart the client sends the same turn again and is answered with the
 * recovered call (the Slack connector finds its post by the call id instead of posting again), and
 * the local Slack saw the post exactly once.
 */
class McpCrashRetryTest {

  private static final String SLACK_TOKEN = "xoxb-mcp-crash-test";
  private static final String TOKEN = "rt_mcp-child-token-0123456789";
  private static final String PASSWORD = "mcp-child-password";

  @TempDir
  Path dir;

  private final Vertx vertx = Vertx.vertx();
  private SlackTestServer slack;
  private RunChild ratchet;
  private McpSyncClient client;

  @AfterEach
  void stop() throws Exception {
    try {
      if (ratchet != null) {
        ratchet.close();
      }
      if (slack != null) {
        slack.close();
      }
    } finally {
      await(vertx.close());
    }
  }

  @Test
  void aWriteInFlightWhenRatchetIsKilledIsNotSentAgainWhenTheClientResendsItsTurn() throws Exception {
    slack = new SlackTestServer(vertx, SLACK_TOKEN).start();
    ratchet = new RunChild(TOKEN, PASSWORD).env(Map.of(
        "RATCHET_CONNECTION_SUPPORT_SLACK_CONNECTOR", "slack",
        "RATCHET_CONNECTION_SUPPORT_SLACK_CONFIG_BASE_URL", slack.baseUrl(),
        "RATCHET_CONNECTION_SUPPORT_SLACK_CREDENTIAL_BOT_TOKEN", SLACK_TOKEN));
    RunChild.copyDemo(dir);
    // the demo's agent with the Slack thread reply its file offers as a comment
    Path demo = dir.resolve("conf/agents/demo.yaml");
    String withSlack = Files.readString(demo).replace("  # - slack:", "  - slack:");
    assertThat(withSlack).contains("  - slack:");
    Files.writeString(demo, withSlack);
    ratchet.start(dir, RunChild.RUNNING, 120);

    McpSyncClient first = client();
    String tool = first.listTools().tools().stream().map(McpSchema.Tool::name)
        .filter(n -> n.contains("post_thread_reply")).findFirst().orElseThrow();
    Map<String, Object> args = Map.of("channel", "C0SUPPORT", "thread_ts", "1710000000.000100",
        "text", "Your refund is on its way");
    Map<String, Object> meta = Map.of("dev.ratchet/turn", "model-response-7", "dev.ratchet/index", 0,
        "dev.ratchet/count", 1);
    // Slack applies the post and never answers: the write is in flight
    slack.failNext(SlackTestServer.Fault.HANG_AFTER_APPLYING);
    CompletableFuture<McpSchema.CallToolResult> inFlight = CompletableFuture.supplyAsync(() ->
        first.callTool(new McpSchema.CallToolRequest(tool, args, meta)));

    RunApi admin = new RunApi(ratchet);
    String csrf = admin.login();
    admin.approve(admin.awaitApproval("mcp-crash-1", 60), csrf, "reply approved");
    ratchet.until(() -> slack.totalPosts() == 1, 30);

    ratchet.kill(30);
    assertThat(inFlight).failsWithin(Duration.ofSeconds(90));
    first.closeGracefully();

    ratchet.start(dir, RunChild.RUNNING, 120);
    McpSchema.CallToolResult resent = client().callTool(new McpSchema.CallToolRequest(tool, args, meta));

    // recovery did not resend the post: it looked it up at Slack by its call id and found it
    assertThat(resent.isError()).as(resent.toString()).isFalse();
    assertThat(resent.meta()).containsEntry("dev.ratchet/outcome", "succeeded");
    assertThat(((Map<?, ?>) resent.structuredContent()).get("ts")).isEqualTo(slack.messages().get(0).getString("ts"));
    String callId = (String) resent.meta().get("dev.ratchet/callId");
    assertThat(slack.postsFor(callId)).isEqualTo(1);
    assertThat(slack.totalPosts()).isEqualTo(1);
  }

  private McpSyncClient client() {
    HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(ratchet.baseUrl())
        .endpoint("/mcp/order-support")
        .httpRequestCustomizer((builder, method, uri, body, context) -> {
          builder.setHeader("Authorization", "Bearer " + TOKEN);
          builder.setHeader("ratchet-session", "mcp-crash-1");
        }).build();
    client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60)).build();
    client.initialize();
    return client;
  }
}
