package dev.ratchet.server.config;

import dev.ratchet.connectors.testing.NpmPackage;
import dev.ratchet.server.RunApi;
import dev.ratchet.server.RunChild;
import dev.ratchet.server.RunChildFixture;
import dev.ratchet.server.bench.OrdersProvider;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ratchet run} as a platform team runs it: a child process serving three agents declared in
 * files, an OpenAPI agent against a local orders service, an MCP agent on the official
 * {@code @modelcontextprotocol/server-filesystem} from the npm registry, and a Slack agent against a
 * local Slack-protocol server. Turns come over HTTP with an agent token, approvals through the API
 * with an operator's login, and every effect is counted once where it lands.
 */
class AgentFilesEndToEndTest extends RunChildFixture {

  private static final String TOKEN = "rt_e2e-agent-files-token-0123";
  private static final String PASSWORD = "agent-files-password-e2e";
  private static final String BOT_TOKEN = "xoxb-agent-files-secret-4711";
  private static final String FILESYSTEM = "@modelcontextprotocol/server-filesystem";
  private static final String FILESYSTEM_VERSION = "2026.8.31";

  private final RunApi api = new RunApi(run);
  private final List<String> output = run.output();
  private final AtomicInteger cancels = new AtomicInteger();
  private final AtomicInteger refunds = new AtomicInteger();
  private final AtomicInteger slackPosts = new AtomicInteger();
  private final List<String> slackAuthorizations = new CopyOnWriteArrayList<>();

  AgentFilesEndToEndTest() {
    super(TOKEN, PASSWORD);
  }

  @Test
  void threeAgentsFromFilesServeTurnsWithApprovalsAndEachEffectLandsOnce() throws Exception {
    Path filesystem = filesystemServer();
    int orders = serve(this::orders);
    int slack = serve(this::slack);
    Path root = Files.createDirectories(dir.resolve("files"));
    Path agents = Files.createDirectories(dir.resolve("agents"));
    Files.createDirectories(dir.resolve("specs"));
    Files.writeString(dir.resolve("specs/orders.yaml"), ORDERS_SPEC);
    Files.writeString(agents.resolve("orders.yaml"), """
        agent: orders
        tools:
          - openapi: specs/orders.yaml
            connection: orders-api
            operations: [getOrder, cancelOrder, refundOrder]
            approval:
              cancelOrder: always
              refundOrder: { when: { properties: { body: { properties: { amount: { exclusiveMinimum: 100 } } } } } }
        """);
    Files.writeString(agents.resolve("files.yaml"), """
        agent: files
        tools:
          - mcp: { command: [node, "%s", "%s"] }
            allow: [read_*, write_file]
            pin: { write_file: { effect: non_idempotent_write, approval: always } }
        """.formatted(filesystem, root));
    Files.writeString(agents.resolve("support.json"), """
        {"agent": "support",
         "tools": [{"slack": {"connection": "team-slack", "operations": ["postThreadReply"],
                              "approval": {"postThreadReply": "always"}}}]}
        """);
    start(agents, Map.of(
        "RATCHET_CONNECTION_ORDERS_API_CONNECTOR", "openapi",
        "RATCHET_CONNECTION_ORDERS_API_CONFIG_BASE_URL", "http://127.0.0.1:" + orders,
        "RATCHET_CONNECTION_ORDERS_API_CONFIG_CONNECTOR_ID", "orders",
        "RATCHET_CONNECTION_TEAM_SLACK_CONNECTOR", "slack",
        "RATCHET_CONNECTION_TEAM_SLACK_CONFIG_BASE_URL", "http://127.0.0.1:" + slack + "/api",
        "RATCHET_CONNECTION_TEAM_SLACK_CREDENTIAL_BOT_TOKEN", BOT_TOKEN));
    assertThat(output).anyMatch(l -> l.startsWith("Ratchet is running (agents [") && l.contains("orders")
        && l.contains("files") && l.contains("support"));

    // the catalogue: where each agent and source was declared, effect classes, rules in words
    JsonArray catalogue = get("/api/agents").getJsonArray("agents");
    JsonObject ordersAgent = agent(catalogue, "orders");
    assertThat(ordersAgent.getString("origin")).isEqualTo(agents.resolve("orders.yaml") + ":1");
    assertThat(tool(ordersAgent, "orders_refund_order").getString("approval"))
        .isEqualTo("when body.amount > 100 (agent file)");
    assertThat(tool(ordersAgent, "orders_refund_order").getString("origin")).isEqualTo(agents.resolve("orders.yaml")
        + ":3");
    JsonObject filesAgent = agent(catalogue, "files");
    assertThat(filesAgent.getJsonArray("sources").getJsonObject(0).getString("status")).isEqualTo("healthy");
    assertThat(tool(filesAgent, "write_file").getString("effectClass")).isEqualTo("non_idempotent_write");
    assertThat(filesAgent.getJsonArray("catalogue").stream().map(t -> ((JsonObject) t).getString("name")))
        .contains("read_text_file", "write_file").doesNotContain("move_file", "edit_file");
    assertThat(tool(agent(catalogue, "support"), "slack_post_thread_reply").getString("approval"))
        .isEqualTo("always (agent file)");
    String csrf = login();

    // OpenAPI: a small refund runs without asking, a large one and a cancel wait for a person
    submit("o-1", "orders", "t1", new JsonArray()
        .add(call("orders_refund_order", new JsonObject().put("orderId", "1001").put("body",
            new JsonObject().put("amount", 20))))
        .add(call("orders_refund_order", new JsonObject().put("orderId", "1002").put("body",
            new JsonObject().put("amount", 250))))
        .add(call("orders_cancel_order", new JsonObject().put("orderId", "1003"))));
    JsonObject refund = awaitApproval("o-1");
    assertThat(refund.getString("tool")).isEqualTo("orders_refund_order");
    assertThat(refund.getString("askedBecause")).isEqualTo("approval required by agent file: body.amount > 100");
    approve("o-1", refund, csrf);
    JsonObject cancel = awaitApproval("o-1");
    assertThat(cancel.getString("tool")).isEqualTo("orders_cancel_order");
    approve("o-1", cancel, csrf);
    assertThat(outcomes(result("o-1", "t1"))).containsExactly("succeeded", "succeeded", "succeeded");

    // MCP: the write waits for approval as pinned, then writes the file once
    Path note = root.resolve("note.txt");
    submit("f-1", "files", "t1", new JsonArray().add(call("write_file",
        new JsonObject().put("path", note.toString()).put("content", "written once"))));
    JsonObject write = awaitApproval("f-1");
    assertThat(Files.exists(note)).isFalse();
    approve("f-1", write, csrf);
    assertThat(outcomes(result("f-1", "t1"))).containsExactly("succeeded");
    assertThat(Files.readString(note)).isEqualTo("written once");
    submit("f-1", "files", "t2", new JsonArray().add(call("read_text_file",
        new JsonObject().put("path", note.toString()))));
    assertThat(result("f-1", "t2").getJsonArray("results").getJsonObject(0).encode()).contains("written once");

    // Slack: the reply waits for approval, then posts once with the connection's token
    submit("s-1", "support", "t1", new JsonArray().add(call("slack_post_thread_reply", new JsonObject()
        .put("channel", "C0123456789").put("thread_ts", "1710000000.000100").put("text", "on its way"))));
    approve("s-1", awaitApproval("s-1"), csrf);
    assertThat(outcomes(result("s-1", "t1"))).containsExactly("succeeded");

    assertThat(refunds).hasValue(2);
    assertThat(cancels).hasValue(1);
    assertThat(slackPosts).hasValue(1);
    assertThat(slackAuthorizations).containsOnly("Bearer " + BOT_TOKEN);
    assertThat(String.join("\n", output)).doesNotContain(BOT_TOKEN);
  }

  /** The orders service's document with a refund operation, which retries safely. */
  private static final String ORDERS_SPEC = OrdersProvider.SPEC + """
        /orders/{orderId}/refunds:
          post:
            operationId: refundOrder
            x-ratchet-agent: {retry: safe}
            parameters: [{name: orderId, in: path, required: true, schema: {type: string}}]
            requestBody:
              required: true
              content:
                application/json:
                  schema: {type: object, required: [amount], properties: {amount: {type: number}}}
            responses: {"200": {description: refunded}}
      """;

  private void orders(HttpServerRequest req) {
    req.body().onSuccess(body -> {
      if (req.path().endsWith("/cancel")) {
        cancels.incrementAndGet();
      } else if (req.path().endsWith("/refunds")) {
        refunds.incrementAndGet();
      }
      req.response().putHeader("Content-Type", "application/json").end(new JsonObject().put("ok", true).encode());
    });
  }

  private void slack(HttpServerRequest req) {
    req.body().onSuccess(body -> {
      slackAuthorizations.add(req.getHeader("Authorization"));
      JsonObject answer;
      if (req.path().endsWith("/chat.postMessage")) {
        slackPosts.incrementAndGet();
        JsonObject sent = body.toJsonObject();
        answer = new JsonObject().put("ok", true).put("channel", sent.getString("channel"))
            .put("ts", "1710000001.000200").put("message", new JsonObject().put("text", sent.getString("text"))
                .put("ts", "1710000001.000200").put("thread_ts", sent.getString("thread_ts")));
      } else {
        answer = new JsonObject().put("ok", true).put("messages", new JsonArray());
      }
      req.response().putHeader("Content-Type", "application/json").end(answer.encode());
    });
  }

  private int serve(io.vertx.core.Handler<HttpServerRequest> handler) {
    HttpServer server = await(vertx.createHttpServer().requestHandler(handler).listen(0, "127.0.0.1"));
    return server.actualPort();
  }

  private void start(Path agents, Map<String, String> connections) throws Exception {
    run.env(connections).env(Map.of("RATCHET_AGENTS_DIR", agents.toString())).start(dir, RunChild.RUNNING, 180);
  }

  private static JsonObject call(String name, JsonObject arguments) {
    return new JsonObject().put("name", name).put("arguments", arguments);
  }

  private void submit(String session, String agent, String turnId, JsonArray calls) throws Exception {
    HttpResponse<String> r = api.post("/api/sessions/" + session + "/turns", new JsonObject().put("agent", agent)
        .put("turn", new JsonObject().put("turnId", turnId).put("calls", calls)), Map.of("Authorization",
        "Bearer " + TOKEN));
    assertThat(r.statusCode()).as(r.body()).isIn(200, 202);
  }

  private JsonObject result(String session, String turnId) {
    return api.turnResults(session, turnId, 60);
  }

  private static List<String> outcomes(JsonObject results) {
    return results.getJsonArray("results").stream().map(o -> ((JsonObject) o).getString("outcome")).toList();
  }

  private static JsonObject agent(JsonArray agents, String name) {
    return agents.stream().map(JsonObject.class::cast).filter(a -> name.equals(a.getString("name"))).findFirst()
        .orElseThrow(() -> new AssertionError("no agent " + name + " in " + agents.encode()));
  }

  private static JsonObject tool(JsonObject agent, String name) {
    return agent.getJsonArray("catalogue").stream().map(JsonObject.class::cast)
        .filter(t -> name.equals(t.getString("name"))).findFirst()
        .orElseThrow(() -> new AssertionError("no tool " + name + " in " + agent.encode()));
  }

  private JsonObject awaitApproval(String session) {
    return api.awaitApproval(session, 60);
  }

  private void approve(String session, JsonObject approval, String csrf) throws Exception {
    assertThat(approval.getString("sessionId")).isEqualTo(session);
    api.approve(approval, csrf, "checked");
  }

  private String login() throws Exception {
    return api.login();
  }

  private JsonObject get(String path) {
    return api.get(path);
  }

  /** The official filesystem MCP server, installed from the npm registry into the temporary folder once. */
  private static Path filesystemServer() throws IOException, InterruptedException {
    return NpmPackage.file("ratchet-mcp-filesystem-" + FILESYSTEM_VERSION, FILESYSTEM, FILESYSTEM_VERSION,
        "dist/index.js");
  }
}
