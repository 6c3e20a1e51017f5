package dev.ratchet.server.mcp;

import dev.ratchet.connectors.testing.SlackTestServer;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client of Ratchet's MCP endpoint whose write is in flight when {@code ratchet run} is killed
 * with SIGKILL: after the restart the client sends the same turn again and is answered with the
 * recovered call (the Slack connector finds its post by the call id instead of posting again), and
 * the local Slack saw the post exactly once.
 */
class McpCrashRetryTest {

  private static final String SLACK_TOKEN = "xoxb-mcp-crash-test";

  @TempDir
  Path dir;

  private final Vertx vertx = Vertx.vertx();
  private SlackTestServer slack;
  private RatchetChild ratchet;
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
      vertx.close().await();
    }
  }

  @Test
  void aWriteInFlightWhenRatchetIsKilledIsNotSentAgainWhenTheClientResendsItsTurn() throws Exception {
    slack = new SlackTestServer(vertx, SLACK_TOKEN).start();
    ratchet = new RatchetChild(dir, Map.of(
        "RATCHET_CONNECTION_SUPPORT_SLACK_CONNECTOR", "slack",
        "RATCHET_CONNECTION_SUPPORT_SLACK_CONFIG_BASE_URL", slack.baseUrl(),
        "RATCHET_CONNECTION_SUPPORT_SLACK_CREDENTIAL_BOT_TOKEN", SLACK_TOKEN));
    // the demo's agent with the Slack thread reply its file offers as a comment
    Path demo = dir.resolve("conf/agents/demo.yaml");
    String withSlack = Files.readString(demo).replace("  # - slack:", "  - slack:");
    assertThat(withSlack).contains("  - slack:");
    Files.writeString(demo, withSlack);
    ratchet.start();

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

    Admin admin = new Admin(ratchet.baseUrl());
    JsonObject request = admin.awaitApproval("mcp-crash-1");
    admin.approve(request);
    until(() -> slack.totalPosts() == 1, 30);

    ratchet.kill();
    assertThat(inFlight).failsWithin(Duration.ofSeconds(90));
    first.closeGracefully();

    ratchet.start();
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
          builder.setHeader("Authorization", "Bearer " + RatchetChild.TOKEN);
          builder.setHeader("ratchet-session", "mcp-crash-1");
        }).build();
    client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60)).build();
    client.initialize();
    return client;
  }

  /** The admin, approving over the HTTP API as a person does from the dashboard. */
  private static final class Admin {
    private final String base;
    private final HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
    private final String csrf;

    Admin(String base) throws Exception {
      this.base = base;
      HttpResponse<String> login = http.send(HttpRequest.newBuilder(URI.create(base + "/login"))
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("name", "admin")
              .put("password", RatchetChild.PASSWORD).encode())).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(login.statusCode()).as(login.body()).isEqualTo(200);
      csrf = new JsonObject(login.body()).getString("csrfToken");
    }

    JsonObject awaitApproval(String session) throws Exception {
      long deadline = System.currentTimeMillis() + 60_000;
      while (System.currentTimeMillis() < deadline) {
        HttpResponse<String> list = http.send(HttpRequest.newBuilder(URI.create(base + "/api/approvals")).GET()
            .build(), HttpResponse.BodyHandlers.ofString());
        for (Object o : new JsonObject(list.body()).getJsonArray("approvals")) {
          if (session.equals(((JsonObject) o).getString("sessionId"))) {
            return (JsonObject) o;
          }
        }
        Thread.sleep(100);
      }
      throw new AssertionError("no approval was requested in " + session);
    }

    void approve(JsonObject request) throws Exception {
      HttpResponse<String> decided = http.send(HttpRequest.newBuilder(URI.create(base + "/api/approvals/"
              + request.getString("sessionId") + "/" + request.getString("callId")))
          .header("Content-Type", "application/json").header("X-CSRF-Token", csrf)
          .POST(HttpRequest.BodyPublishers.ofString(new JsonObject()
              .put("argumentsHash", request.getString("argumentsHash")).put("approved", true)
              .put("reason", "reply approved").encode())).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(decided.statusCode()).as(decided.body()).isEqualTo(200);
    }
  }

  private static void until(BooleanSupplier condition, int seconds) throws InterruptedException {
    long deadline = System.currentTimeMillis() + seconds * 1000L;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("condition not met in " + seconds + " s");
      }
      Thread.sleep(50);
    }
  }
}
