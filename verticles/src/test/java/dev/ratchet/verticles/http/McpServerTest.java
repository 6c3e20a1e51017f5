package dev.ratchet.verticles.http;

import dev.ratchet.runtime.testing.TestRedis;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Ratchet as an MCP server, driven by the MCP Java SDK's own client over streamable HTTP: the
 * agent's catalogue with its hints, a read, a write approved over the HTTP API while the call
 * waits (with progress), a rejected write, the calls of one model response run as one turn, and
 * the protocol's and the tenants' refusals.
 */
class McpServerTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  static final String OTHER_TOKEN = "rt_other-tenant-mcp-0123456789";

  static ShopRuntime shop;
  static String base;
  private final List<McpSyncClient> clients = new ArrayList<>();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeAll
  static void start() {
    shop = new ShopRuntime(REDIS, options -> options
        .token("other-bot", Role.AGENT, PasswordHash.hashToken(OTHER_TOKEN), "other-tenant"));
    base = shop.baseUrl();
  }

  @AfterAll
  static void stop() {
    shop.close();
  }

  @BeforeEach
  void clear() {
    shop.writes.clear();
  }

  @AfterEach
  void closeClients() {
    clients.forEach(McpSyncClient::closeGracefully);
  }

  private McpSyncClient client(String ratchetSession, List<McpSchema.ProgressNotification> progress) {
    HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(base).endpoint("/mcp/shop")
        .httpRequestCustomizer((builder, method, uri, body, context) -> {
          builder.setHeader("Authorization", "Bearer " + ShopRuntime.AGENT_TOKEN);
          if (ratchetSession != null) {
            builder.setHeader("ratchet-session", ratchetSession);
          }
        }).build();
    McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60))
        .progressConsumer(progress::add).build();
    clients.add(client);
    McpSchema.InitializeResult init = client.initialize();
    assertThat(init.protocolVersion()).isEqualTo("2025-06-18");
    assertThat(init.capabilities().tools().listChanged()).isFalse();
    return client;
  }

  private McpSyncClient client(String ratchetSession) {
    return client(ratchetSession, new CopyOnWriteArrayList<>());
  }

  @Test
  void toolsListShowsTheAgentsCatalogueWithHintsFromEachEffectClass() throws Exception {
    McpSchema.ListToolsResult list = client(null).listTools();
    Map<String, McpSchema.Tool> tools = new java.util.HashMap<>();
    list.tools().forEach(t -> tools.put(t.name(), t));
    assertThat(tools).containsOnlyKeys("look_up_order", "refund_order", "post_message", "charge_card");

    McpSchema.ToolAnnotations read = tools.get("look_up_order").annotations();
    assertThat(read.readOnlyHint()).isTrue();
    assertThat(read.destructiveHint()).isFalse();
    assertThat(read.idempotentHint()).isTrue();
    McpSchema.ToolAnnotations write = tools.get("refund_order").annotations();
    assertThat(write.readOnlyHint()).isFalse();
    assertThat(write.destructiveHint()).isTrue();
    assertThat(write.idempotentHint()).isFalse();
    assertThat(tools.get("refund_order").description()).isEqualTo("Refund an order");

    // the schemas are the catalogue's, byte for byte
    JsonArray catalogue = Http.bearer(base, ShopRuntime.AGENT_TOKEN).get("/api/agents/shop/tools").json()
        .getJsonArray("tools");
    JsonArray listed = rpc(ShopRuntime.AGENT_TOKEN, session(), null, new JsonObject().put("jsonrpc", "2.0")
        .put("id", 2).put("method", "tools/list")).json().getJsonObject("result").getJsonArray("tools");
    assertThat(listed).hasSize(catalogue.size());
    for (int i = 0; i < catalogue.size(); i++) {
      assertThat(listed.getJsonObject(i).getJsonObject("inputSchema").encode())
          .isEqualTo(catalogue.getJsonObject(i).getJsonObject("inputSchema").encode());
      assertThat(listed.getJsonObject(i).getJsonObject("_meta").getString("dev.ratchet/effectClass"))
          .isEqualTo(catalogue.getJsonObject(i).getString("effectClass"));
    }
  }

  @Test
  void aReadRunsInTheTokensSessionAndAnswersWithItsResult() {
    McpSchema.CallToolResult result = client("mcp-read-1").callTool(
        new McpSchema.CallToolRequest("look_up_order", Map.of("id", "1002")));
    assertThat(result.isError()).isFalse();
    JsonObject text = new JsonObject(((McpSchema.TextContent) result.content().get(0)).text());
    assertThat(text).isEqualTo(new JsonObject().put("order", "1002").put("status", "shipped"));
    assertThat(result.structuredContent()).isEqualTo(Map.of("order", "1002", "status", "shipped"));
    assertThat(result.meta()).containsEntry("dev.ratchet/outcome", "succeeded")
        .containsEntry("dev.ratchet/sessionId", "mcp-read-1");

    // the session is the token's, and its turn is in the journal
    JsonObject info = dev.ratchet.runtime.testing.Await.await(shop.ratchet.journal().sessionInfo("mcp-read-1"));
    assertThat(info.getString("caller")).isEqualTo("support-bot");
    assertThat(info.getString("agent")).isEqualTo("shop");
  }

  @Test
  void withoutARatchetSessionHeaderTheCallRunsInTheMcpSessionsOwnSession() {
    McpSyncClient client = client(null);
    McpSchema.CallToolResult result = client.callTool(
        new McpSchema.CallToolRequest("look_up_order", Map.of("id", "7")));
    assertThat(result.isError()).isFalse();
    String session = (String) result.meta().get("dev.ratchet/sessionId");
    assertThat(session).startsWith("mcp-");
    JsonObject info = dev.ratchet.runtime.testing.Await.await(shop.ratchet.journal().sessionInfo(session));
    assertThat(info.getString("caller")).isEqualTo("support-bot");
    // a second call of the same MCP session lands in the same Ratchet session
    McpSchema.CallToolResult second = client.callTool(new McpSchema.CallToolRequest("look_up_order", Map.of("id", "8")));
    assertThat(second.meta()).containsEntry("dev.ratchet/sessionId", session);
  }

  @Test
  void aWriteWaitsOpenWithProgressUntilApprovedOverTheHttpApiAndRunsOnce() throws Exception {
    List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
    McpSyncClient client = client("mcp-approve-1", progress);
    CompletableFuture<McpSchema.CallToolResult> call = CompletableFuture.supplyAsync(() -> client.callTool(
        new McpSchema.CallToolRequest("refund_order", Map.of("id", "1002", "amount", 30),
            Map.of("progressToken", "refund-1"))));

    Http ana = Http.login(base, "ana", ShopRuntime.PASSWORD);
    JsonObject request = awaitApproval(ana, "mcp-approve-1");
    assertThat(request.getString("tool")).isEqualTo("refund_order");
    assertThat(shop.writes).isEmpty();
    assertThat(call).isNotDone();
    awaitTrue(() -> !progress.isEmpty());
    assertThat(progress.get(0).progressToken()).isEqualTo("refund-1");
    assertThat(progress.get(0).message()).contains("waiting for a person to approve refund_order");

    Http.Answer decided = ana.post("/api/approvals/mcp-approve-1/" + request.getString("callId"), new JsonObject()
        .put("argumentsHash", request.getString("argumentsHash")).put("approved", true).put("reason", "ok"));
    assertThat(decided.status()).as(decided.body()).isEqualTo(200);

    McpSchema.CallToolResult result = call.get(30, TimeUnit.SECONDS);
    assertThat(result.isError()).isFalse();
    assertThat(result.structuredContent()).isEqualTo(Map.of("refunded", true));
    assertThat(shop.writes).containsExactly(new JsonObject().put("id", "1002").put("amount", 30));
  }

  @Test
  void aRejectedWriteIsAnErrorResultWithTheApproversReasonAndNeverRuns() throws Exception {
    McpSyncClient client = client("mcp-reject-1");
    CompletableFuture<McpSchema.CallToolResult> call = CompletableFuture.supplyAsync(() -> client.callTool(
        new McpSchema.CallToolRequest("post_message", Map.of("text", "hello everyone"))));
    Http ana = Http.login(base, "ana", ShopRuntime.PASSWORD);
    JsonObject request = awaitApproval(ana, "mcp-reject-1");
    Http.Answer decided = ana.post("/api/approvals/mcp-reject-1/" + request.getString("callId"), new JsonObject()
        .put("argumentsHash", request.getString("argumentsHash")).put("approved", false)
        .put("reason", "announcements go through the comms team"));
    assertThat(decided.status()).as(decided.body()).isEqualTo(200);

    McpSchema.CallToolResult result = call.get(30, TimeUnit.SECONDS);
    assertThat(result.isError()).isTrue();
    String text = ((McpSchema.TextContent) result.content().get(0)).text();
    assertThat(text).contains("a person refused it").contains("ana").contains("announcements go through the comms team")
        .doesNotContain("safe to call again");
    assertThat(shop.writes).isEmpty();
  }

  @Test
  void theCallsOfOneModelResponseRunAsOneTurnAndAResentTurnIsAnsweredFromTheJournal() throws Exception {
    McpSyncClient client = client("mcp-turn-1");
    // the charge's provider times out (outcome_unknown), so the refund after it must not run (rule 5);
    // the refund arrives first, and still waits for the charge, which the model put before it
    CompletableFuture<McpSchema.CallToolResult> refund = CompletableFuture.supplyAsync(() -> client.callTool(
        new McpSchema.CallToolRequest("refund_order", Map.of("id", "9"), turnMeta("model-response-1", 1, 2))));
    Thread.sleep(300);
    assertThat(refund).isNotDone();
    McpSchema.CallToolResult charge = client.callTool(
        new McpSchema.CallToolRequest("charge_card", Map.of("cents", 500), turnMeta("model-response-1", 0, 2)));
    McpSchema.CallToolResult skipped = refund.get(30, TimeUnit.SECONDS);

    assertThat(charge.isError()).isTrue();
    assertThat(charge.meta()).containsEntry("dev.ratchet/outcome", "outcome_unknown");
    assertThat(skipped.isError()).isTrue();
    assertThat(((McpSchema.TextContent) skipped.content().get(0)).text())
        .startsWith("the tool did not run, so it is safe to call again");
    assertThat(skipped.meta()).containsEntry("dev.ratchet/skipped", true);
    assertThat(shop.writes).containsExactly(new JsonObject().put("cents", 500));

    // a client that crashed resends the turn: answered from the journal, nothing sent again
    McpSyncClient again = client("mcp-turn-1");
    McpSchema.CallToolResult resent = again.callTool(
        new McpSchema.CallToolRequest("charge_card", Map.of("cents", 500), turnMeta("model-response-1", 0, 2)));
    assertThat(resent.isError()).isTrue();
    assertThat(resent.meta()).containsEntry("dev.ratchet/callId", charge.meta().get("dev.ratchet/callId"));
    assertThat(shop.writes).hasSize(1);
  }

  @Test
  void aTurnResentWhileItWaitsForApprovalJoinsItAndTheWriteRunsOnce() throws Exception {
    McpSyncClient first = client("mcp-join-1");
    Map<String, Object> meta = turnMeta("model-response-9", 0, 1);
    CompletableFuture<McpSchema.CallToolResult> original = CompletableFuture.supplyAsync(() -> first.callTool(
        new McpSchema.CallToolRequest("refund_order", Map.of("id", "77"), meta)));
    Http ana = Http.login(base, "ana", ShopRuntime.PASSWORD);
    JsonObject request = awaitApproval(ana, "mcp-join-1");

    // the client lost its connection and sends the same turn again from a new MCP session
    McpSyncClient again = client("mcp-join-1");
    CompletableFuture<McpSchema.CallToolResult> resent = CompletableFuture.supplyAsync(() -> again.callTool(
        new McpSchema.CallToolRequest("refund_order", Map.of("id", "77"), meta)));
    Thread.sleep(300);
    assertThat(resent).isNotDone();
    Http.Answer decided = ana.post("/api/approvals/mcp-join-1/" + request.getString("callId"), new JsonObject()
        .put("argumentsHash", request.getString("argumentsHash")).put("approved", true));
    assertThat(decided.status()).as(decided.body()).isEqualTo(200);

    assertThat(resent.get(30, TimeUnit.SECONDS).isError()).isFalse();
    assertThat(original.get(30, TimeUnit.SECONDS).meta().get("dev.ratchet/callId"))
        .isEqualTo(resent.get().meta().get("dev.ratchet/callId"));
    assertThat(shop.writes).containsExactly(new JsonObject().put("id", "77"));
  }

  @Test
  void callsThatDisagreeOnTheirTurnsCountAreRefusedAndNothingRuns() throws Exception {
    String s = session();
    CompletableFuture<Http.Answer> first = CompletableFuture.supplyAsync(() -> rpcUnchecked(ShopRuntime.AGENT_TOKEN, s,
        "mcp-count-1", call(1, "charge_card", new JsonObject().put("cents", 1), "t-count", 0, 2)));
    Thread.sleep(300);
    Http.Answer second = rpc(ShopRuntime.AGENT_TOKEN, s, "mcp-count-1",
        call(2, "charge_card", new JsonObject().put("cents", 2), "t-count", 1, 3));
    JsonObject error = second.json().getJsonObject("error");
    assertThat(error.getInteger("code")).isEqualTo(-32002);
    assertThat(error.getString("message")).contains("disagree on dev.ratchet/count");
    JsonObject firstError = first.get(30, TimeUnit.SECONDS).json().getJsonObject("error");
    assertThat(firstError.getString("message")).contains("send the same dev.ratchet/count with every call");
    assertThat(shop.writes).isEmpty();
  }

  @Test
  void aTurnWhoseOtherCallsNeverArriveFailsAfterTheWaitAndNothingRuns() throws Exception {
    Http.Answer answer = rpc(ShopRuntime.AGENT_TOKEN, session(), "mcp-lonely-1",
        call(1, "charge_card", new JsonObject().put("cents", 3), "t-lonely", 0, 2));
    JsonObject error = answer.json().getJsonObject("error");
    assertThat(error.getInteger("code")).isEqualTo(-32002);
    assertThat(error.getString("message")).contains("only 1 of its 2 calls arrived").contains("missing index [1]");
    assertThat(shop.writes).isEmpty();
    assertThat(dev.ratchet.runtime.testing.Await.await(shop.ratchet.journal().turnResult("mcp-lonely-1", "t-lonely")))
        .isNull();
  }

  @Test
  void anUnknownToolIsAToolErrorTheModelCanActOn() {
    McpSchema.CallToolResult result = client("mcp-unknown-tool").callTool(
        new McpSchema.CallToolRequest("delete_everything", Map.of()));
    assertThat(result.isError()).isTrue();
    assertThat(((McpSchema.TextContent) result.content().get(0)).text()).contains("delete_everything");
  }

  @Test
  void anotherCallersSessionAnswersLikeAMissingOneAndNothingRuns() throws Exception {
    assertThat(client("mcp-mine-1").callTool(new McpSchema.CallToolRequest("look_up_order", Map.of("id", "1")))
        .isError()).isFalse();
    Http.Answer answer = rpc(OTHER_TOKEN, session(OTHER_TOKEN), "mcp-mine-1",
        call(3, "charge_card", new JsonObject().put("cents", 4), null, 0, 0));
    JsonObject error = answer.json().getJsonObject("error");
    assertThat(error.getInteger("code")).isEqualTo(-32001);
    assertThat(error.getString("message")).isEqualTo("no session 'mcp-mine-1'");
    assertThat(error.getJsonObject("data").getString("code")).isEqualTo("UNKNOWN_SESSION");
    assertThat(answer.body()).doesNotContain("support-bot");
    assertThat(shop.writes).isEmpty();
  }

  @Test
  void theProtocolsRefusalsAreClear() throws Exception {
    String s = session();
    Http.Answer unknownAgent = send("/mcp/nobody", ShopRuntime.AGENT_TOKEN, s, null, ping().encode());
    assertThat(unknownAgent.status()).isEqualTo(404);
    assertThat(unknownAgent.json().getJsonObject("error").getString("message")).isEqualTo("no agent named 'nobody'");

    Http.Answer badToken = send("/mcp/shop", "rt_not-a-token-000000000000", s, null, ping().encode());
    assertThat(badToken.status()).isEqualTo(401);

    Http.Answer notJson = send("/mcp/shop", ShopRuntime.AGENT_TOKEN, s, null, "{\"jsonrpc\": \"2.0\", ");
    assertThat(notJson.status()).isEqualTo(400);
    assertThat(notJson.json().getJsonObject("error").getInteger("code")).isEqualTo(-32700);

    Http.Answer notRpc = send("/mcp/shop", ShopRuntime.AGENT_TOKEN, s, null, "{\"method\": \"ping\", \"id\": 1}");
    assertThat(notRpc.status()).isEqualTo(400);
    assertThat(notRpc.json().getJsonObject("error").getInteger("code")).isEqualTo(-32600);

    Http.Answer unknownMethod = send("/mcp/shop", ShopRuntime.AGENT_TOKEN, s, null,
        new JsonObject().put("jsonrpc", "2.0").put("id", 5).put("method", "resources/list").encode());
    assertThat(unknownMethod.json().getJsonObject("error").getInteger("code")).isEqualTo(-32601);

    Http.Answer tooBig = send("/mcp/shop", ShopRuntime.AGENT_TOKEN, s, null,
        call(6, "look_up_order", new JsonObject().put("id", "x".repeat(70_000)), null, 0, 0).encode());
    assertThat(tooBig.status()).isEqualTo(413);

    Http.Answer pong = send("/mcp/shop", ShopRuntime.AGENT_TOKEN, s, null, ping().encode());
    assertThat(pong.json().getJsonObject("result")).isEqualTo(new JsonObject());

    // an ended MCP session is not accepted again
    HttpResponse<String> deleted = http.send(HttpRequest.newBuilder(URI.create(base + "/mcp/shop")).DELETE()
        .header("Authorization", "Bearer " + ShopRuntime.AGENT_TOKEN).header("Mcp-Session-Id", s).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(deleted.statusCode()).isEqualTo(200);
    assertThat(send("/mcp/shop", ShopRuntime.AGENT_TOKEN, s, null, ping().encode()).status()).isEqualTo(404);
  }

  private static Map<String, Object> turnMeta(String turn, int index, int count) {
    return Map.of("dev.ratchet/turn", turn, "dev.ratchet/index", index, "dev.ratchet/count", count);
  }

  private static JsonObject ping() {
    return new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "ping");
  }

  private static JsonObject call(int id, String tool, JsonObject arguments, String turn, int index, int count) {
    JsonObject params = new JsonObject().put("name", tool).put("arguments", arguments);
    if (turn != null) {
      params.put("_meta", new JsonObject().put("dev.ratchet/turn", turn).put("dev.ratchet/index", index)
          .put("dev.ratchet/count", count));
    }
    return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", "tools/call").put("params", params);
  }

  /** A new MCP session of the shop's token, from initialize. */
  private String session() throws Exception {
    return session(ShopRuntime.AGENT_TOKEN);
  }

  private String session(String token) throws Exception {
    Http.Answer init = send("/mcp/shop", token, null, null, new JsonObject().put("jsonrpc", "2.0").put("id", 0)
        .put("method", "initialize").put("params", new JsonObject().put("protocolVersion", "2025-03-26")
            .put("capabilities", new JsonObject()).put("clientInfo", new JsonObject().put("name", "t")
                .put("version", "1"))).encode());
    assertThat(init.json().getJsonObject("result").getString("protocolVersion")).isEqualTo("2025-03-26");
    return init.raw().headers().firstValue("Mcp-Session-Id").orElseThrow();
  }

  private Http.Answer rpc(String token, String mcpSession, String ratchetSession, JsonObject message) throws Exception {
    return send("/mcp/shop", token, mcpSession, ratchetSession, message.encode());
  }

  private Http.Answer rpcUnchecked(String token, String mcpSession, String ratchetSession, JsonObject message) {
    try {
      return rpc(token, mcpSession, ratchetSession, message);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** One POST as plain JSON (no SSE), so the answer is the JSON-RPC message itself. */
  private Http.Answer send(String path, String token, String mcpSession, String ratchetSession, String body)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(40))
        .header("Content-Type", "application/json").header("Accept", "application/json")
        .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.ofString(body));
    if (mcpSession != null) {
      b.header("Mcp-Session-Id", mcpSession);
    }
    if (ratchetSession != null) {
      b.header("ratchet-session", ratchetSession);
    }
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    return new Http.Answer(r.statusCode(), r.body(), r);
  }

  private static JsonObject awaitApproval(Http who, String session) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 30_000;
    while (System.currentTimeMillis() < deadline) {
      for (Object o : who.get("/api/approvals").json().getJsonArray("approvals")) {
        JsonObject r = (JsonObject) o;
        if (session.equals(r.getString("sessionId"))) {
          return r;
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no approval was requested in " + session);
  }

  private static void awaitTrue(java.util.function.BooleanSupplier condition) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 30_000;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("condition not met in 30 s");
      }
      Thread.sleep(50);
    }
  }
}
