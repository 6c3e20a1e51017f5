package dev.ratchet.connectors.openapi;

import dev.ratchet.connectors.Connection;
import dev.ratchet.connectors.ConnectionsException;
import dev.ratchet.connectors.ConnectorToolSource;
import dev.ratchet.connectors.ManifestException;
import dev.ratchet.connectors.OpenApiConnector;
import dev.ratchet.connectors.OpenApiWarning;
import dev.ratchet.connectors.testing.OrdersTestServer;
import dev.ratchet.connectors.testing.OrdersTestServer.Fault;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.Secret;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolNotSentException;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;

import static dev.ratchet.connectors.ConnectorTool.connectorTool;
import static dev.ratchet.connectors.testing.Invocations.attempt;
import static dev.ratchet.connectors.testing.Invocations.await;
import static dev.ratchet.connectors.testing.Invocations.failure;
import static dev.ratchet.connectors.testing.Invocations.invocation;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OpenApiConnectorTest {

  static final String TOKEN = "orders-token-secret-8812";

  Vertx vertx;
  OrdersTestServer server;
  OpenApiConnector orders;

  static Path resource(String name) {
    try {
      return Path.of(OpenApiConnectorTest.class.getResource("/openapi/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @BeforeEach
  void setUp() {
    vertx = Vertx.vertx();
    server = new OrdersTestServer(vertx, TOKEN).start();
    orders = OpenApiConnector.load(vertx, resource("orders.yaml"), connection(new JsonObject().put("auth", "bearer"),
        Map.of("token", Secret.of(TOKEN))));
  }

  @AfterEach
  void tearDown() {
    orders.close();
    server.close();
    await(vertx.close());
  }

  private Connection connection(JsonObject config, Map<String, Secret> credentials) {
    return Connection.of("orders-api", "openapi", config.put("baseUrl", server.baseUrl()), credentials);
  }

  private Tool tool(String operationId) {
    return await(ConnectorToolSource.of(connectorTool(orders.operation(operationId))).tools(vertx)).get(0);
  }

  private static JsonObject refund(double amount) {
    return new JsonObject().put("orderId", "1002").put("body", new JsonObject().put("amount", amount)
        .put("reason", "damaged"));
  }

  @Test
  void yamlDocumentBecomesToolsWithParametersAndBodyInOneSchema() {
    Tool refund = tool("createRefund");
    assertThat(refund.name()).isEqualTo("orders_api_create_refund");
    assertThat(refund.source()).isEqualTo("connector:orders_api/orders-api");
    assertThat(refund.description()).isEqualTo("Refund an order");
    JsonObject schema = refund.inputSchema();
    assertThat(schema.getJsonObject("properties").fieldNames()).containsExactlyInAnyOrder("orderId", "body");
    assertThat(schema.getJsonArray("required")).containsExactlyInAnyOrder("orderId", "body");
    assertThat(schema.getJsonObject("properties").getJsonObject("orderId").getString("description"))
        .isEqualTo("The order number");
    // the $ref'd body schema is inlined and 3.0's boolean exclusiveMinimum is converted
    JsonObject amount = schema.getJsonObject("properties").getJsonObject("body").getJsonObject("properties")
        .getJsonObject("amount");
    assertThat(amount.getValue("exclusiveMinimum")).isEqualTo(0);
    assertThat(orders.warnings()).isEmpty();
  }

  @Test
  void httpMethodDecidesEffectClassAndTheExtensionOverrides() {
    assertThat(tool("getOrder").effectClass()).isEqualTo(EffectClass.READ);
    assertThat(tool("listOrders").effectClass()).isEqualTo(EffectClass.READ);
    assertThat(tool("setOrderNote").effectClass()).isEqualTo(EffectClass.IDEMPOTENT_WRITE);
    assertThat(tool("releaseHold").effectClass()).isEqualTo(EffectClass.IDEMPOTENT_WRITE);
    assertThat(tool("createRefund").effectClass()).isEqualTo(EffectClass.NON_IDEMPOTENT_WRITE);
    assertThat(tool("createRefund").approvalRule().source()).isEqualTo("manifest");
    assertThat(tool("setOrderNote").approvalRule().isNever()).isTrue();
    assertThat(orders.manifest().operation("addComment").effectClass()).isEqualTo(EffectClass.IDEMPOTENT_WRITE);
    assertThatThrownBy(() -> ConnectorToolSource.of(connectorTool(orders.operation("addComment"))))
        .hasMessageContaining("operation 'addComment'").hasMessageContaining("agent.exposed");
  }

  @Test
  void writeSendsTheIdempotencyKeySoARepeatedAttemptHasOneEffect() {
    Tool refund = tool("createRefund");
    ToolInvocation first = attempt("t1", 0, 1, refund(25));
    ToolResult r1 = await(refund.invoke(first));
    ToolResult r2 = await(refund.invoke(attempt("t1", 0, 2, refund(25))));
    assertThat(r1.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(r2.value()).isEqualTo(r1.value());
    assertThat(server.lastHeaders().get("Idempotency-Key")).isEqualTo(first.idempotencyKey().value());
    assertThat(server.refundEffects()).isEqualTo(1);
    await(refund.invoke(invocation("t1", 1, refund(25))));
    assertThat(server.refundEffects()).isEqualTo(2);
  }

  @Test
  void readsCarryQueryArraysAndHeadersAndNoIdempotencyKey() {
    ToolResult r = await(tool("listOrders").invoke(invocation("t1", 0, new JsonObject().put("status", "open")
        .put("tag", new JsonArray().add("vip").add("eu")).put("limit", 5))));
    assertThat(r.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(((JsonObject) r.value()).getJsonObject("query")).isEqualTo(new JsonObject().put("status", "open")
        .put("tag", new JsonArray().add("vip").add("eu")).put("limit", "5"));
    assertThat(server.lastHeaders().get("Idempotency-Key")).isNull();
    await(tool("getOrder").invoke(invocation("t1", 1, new JsonObject().put("orderId", "1002")
        .put("X-Tenant", "acme"))));
    assertThat(server.lastHeaders().get("X-Tenant")).isEqualTo("acme");
    assertThat(server.lastUri()).isEqualTo("/v1/orders/1002");
  }

  @Test
  void statusCodesMapToBranches() {
    ToolResult missing = await(tool("getOrder").invoke(invocation("t1", 0, new JsonObject().put("orderId", "9"))));
    assertThat(missing.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(missing.error()).contains("HTTP 404").contains("no order 9");

    ToolResult tooMuch = await(tool("createRefund").invoke(invocation("t1", 1, refund(5000))));
    assertThat(tooMuch.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(tooMuch.branch()).isEqualTo("rejected");
    assertThat(tooMuch.retryable()).isFalse();

    server.failNext(Fault.RATE_LIMITED);
    ToolResult limited = await(tool("createRefund").invoke(invocation("t1", 2, refund(5))));
    assertThat(limited.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(limited.retryable()).isTrue();
    assertThat(limited.retryAfterMillis()).isEqualTo(3000);

    server.failNext(Fault.UNAVAILABLE_AFTER_APPLYING);
    ToolResult unavailable = await(tool("createRefund").invoke(invocation("t1", 3, refund(5))));
    assertThat(unavailable.outcome()).isEqualTo(Outcome.OUTCOME_UNKNOWN);

    server.failNext(Fault.UNAVAILABLE_AFTER_APPLYING);
    ToolResult readUnavailable = await(tool("getOrder").invoke(invocation("t1", 4,
        new JsonObject().put("orderId", "1002"))));
    assertThat(readUnavailable.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(readUnavailable.retryable()).isTrue();

    ToolResult released = await(tool("releaseHold").invoke(invocation("t1", 5, new JsonObject().put("orderId", "1"))));
    assertThat(released.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(released.value()).isEqualTo(new JsonObject().put("status", 204));
  }

  @Test
  void connectionLostAfterSendingAWriteIsOutcomeUnknownAndTheRetryWithTheSameKeyAddsNothing() {
    Tool note = tool("setOrderNote");
    JsonObject args = new JsonObject().put("orderId", "1002").put("body", new JsonObject().put("note", "fragile"));
    server.failNext(Fault.DROP_AFTER_APPLYING);
    ToolResult lost = await(note.invoke(attempt("t1", 0, 1, args)));
    assertThat(lost.outcome()).isEqualTo(Outcome.OUTCOME_UNKNOWN);
    assertThat(lost.retryable()).isTrue();

    Tool refund = tool("createRefund");
    server.failNext(Fault.DROP_AFTER_APPLYING);
    ToolResult r1 = await(refund.invoke(attempt("t1", 1, 1, refund(10))));
    assertThat(r1.outcome()).isEqualTo(Outcome.OUTCOME_UNKNOWN);
    await(refund.invoke(attempt("t1", 1, 2, refund(10))));
    assertThat(server.refundEffects()).isEqualTo(1);
  }

  @Test
  void bodyThatIsNotJsonIsAClearErrorThatLosesNoWrite() {
    server.failNext(Fault.HTML_AFTER_APPLYING);
    ToolResult write = await(tool("createRefund").invoke(invocation("t1", 0, refund(5))));
    assertThat(write.outcome()).isEqualTo(Outcome.OUTCOME_UNKNOWN);
    assertThat(write.error()).contains("not JSON").contains("text/html");
    server.failNext(Fault.HTML_AFTER_APPLYING);
    ToolResult read = await(tool("getOrder").invoke(invocation("t1", 1, new JsonObject().put("orderId", "1002"))));
    assertThat(read.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(read.branch()).isEqualTo("defect");
  }

  @Test
  void refusedConnectionAndInvalidArgumentsSendNothing() {
    Throwable invalid = failure(tool("createRefund").invoke(invocation("t1", 0,
        new JsonObject().put("orderId", "abc").put("body", new JsonObject().put("amount", 5)))));
    assertThat(invalid).isInstanceOf(ToolNotSentException.class).hasMessageContaining("orderId");
    assertThat(server.requests()).isZero();
    server.close();
    Throwable refused = failure(tool("createRefund").invoke(invocation("t1", 1, refund(5))));
    assertThat(refused).isInstanceOf(ToolNotSentException.class).hasMessageContaining("nothing was sent");
  }

  @Test
  void providerEchoingTheCredentialNeverPutsItInTheResult() {
    server.failNext(Fault.ECHO_AUTHORIZATION);
    ToolResult r = await(tool("createRefund").invoke(invocation("t1", 0, refund(5))));
    assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(r.error()).contains("HTTP 400").contains("***").doesNotContain(TOKEN);
  }

  @Test
  void basicCredentialsEchoedInBase64NeverReachTheError() {
    String password = "pw-" + java.util.UUID.randomUUID();
    try (OpenApiConnector basic = OpenApiConnector.load(vertx, "orders", resource("orders.yaml"),
        connection(new JsonObject().put("auth", "basic"),
            Map.of("username", Secret.of("support-bot"), "password", Secret.of(password))))) {
      server.failNext(Fault.ECHO_AUTHORIZATION);
      ToolResult r = await(basic.operation("getOrder").execute(invocation("t1", 0,
          new JsonObject().put("orderId", "1002"))));
      String sent = Base64.getEncoder().encodeToString(("support-bot:" + password).getBytes());
      assertThat(server.lastHeaders().get("Authorization")).isEqualTo("Basic " + sent);
      assertThat(r.error()).contains("HTTP 400").contains("Basic ***");
      // no stretch of the header's base64 survives: the password is in base64, never in plain text
      for (int i = 0; i + 12 <= sent.length(); i++) {
        assertThat(r.error()).doesNotContain(sent.substring(i, i + 12));
      }
    }
  }

  @Test
  void apiKeyAndBasicAuthAreSentAsConfigured() {
    try (OpenApiConnector header = OpenApiConnector.load(vertx, "orders", resource("orders.yaml"),
        connection(new JsonObject().put("auth", "apiKeyHeader").put("apiKeyName", "X-API-Key"),
            Map.of("apiKey", Secret.of("key-123"))));
         OpenApiConnector query = OpenApiConnector.load(vertx, "orders", resource("orders.yaml"),
             connection(new JsonObject().put("auth", "apiKeyQuery").put("apiKeyName", "api_key"),
                 Map.of("apiKey", Secret.of("key-456"))));
         OpenApiConnector basic = OpenApiConnector.load(vertx, "orders", resource("orders.yaml"),
             connection(new JsonObject().put("auth", "basic"),
                 Map.of("username", Secret.of("ratchet"), "password", Secret.of("pw-789"))))) {
      JsonObject args = new JsonObject().put("orderId", "1002");
      await(header.operation("getOrder").execute(invocation("t1", 0, args)));
      assertThat(server.lastHeaders().get("X-API-Key")).isEqualTo("key-123");
      await(query.operation("getOrder").execute(invocation("t1", 1, args)));
      assertThat(server.lastUri()).isEqualTo("/v1/orders/1002?api_key=key-456");
      await(basic.operation("getOrder").execute(invocation("t1", 2, args)));
      assertThat(server.lastHeaders().get("Authorization")).isEqualTo("Basic "
          + Base64.getEncoder().encodeToString("ratchet:pw-789".getBytes()));
    }
  }

  @Test
  void connectionMissingTheCredentialItsAuthNeedsIsRefusedAtLoad() {
    assertThatThrownBy(() -> OpenApiConnector.load(vertx, resource("orders.yaml"),
        connection(new JsonObject().put("auth", "bearer"), Map.of()))).isInstanceOf(ConnectionsException.class)
        .hasMessageContaining("credential 'token'");
    assertThatThrownBy(() -> OpenApiConnector.load(vertx, resource("orders.yaml"),
        connection(new JsonObject().put("auth", "oauth"), Map.of()))).hasMessageContaining("config.auth");
  }

  @Test
  void unsupportedConstructsAreListedAndOperationsDependingOnThemCannotBeNamed() {
    try (OpenApiConnector files = OpenApiConnector.load(vertx, "files", resource("unsupported.json"),
        Connection.of("files", "openapi", new JsonObject(), Map.of()))) {
      assertThat(files.warnings()).extracting(OpenApiWarning::operationId)
          .contains(null, "getFile", "watchFile").doesNotContain("uploadFile", "listFiles", "createFolder");
      assertThat(files.warnings().toString()).contains("webhooks").contains("common.yaml#/components/schemas/Id")
          .contains("callbacks");
      // multipart bodies and cookie parameters are sent as the document says (OpenApiWireTest)
      assertThat(files.operation("uploadFile").definition().inputSchema().getJsonObject("properties")
          .fieldNames()).contains("body");
      assertThat(files.operation("listFiles").definition().inputSchema().getJsonObject("properties")
          .fieldNames()).contains("session");
      // callbacks are ignored with a note, and a recursive schema is offered through $defs
      assertThat(files.operation("watchFile")).isNotNull();
      assertThat(files.operation("createFolder").definition().inputSchema().getJsonObject("$defs")
          .getJsonObject("Folder").getJsonObject("properties").getJsonObject("children").getJsonObject("items"))
          .isEqualTo(new JsonObject().put("$ref", "#/$defs/Folder"));
      assertThat(files.operation("deleteFile").definition().effectClass()).isEqualTo(EffectClass.IDEMPOTENT_WRITE);
      assertThat(files.baseUrl()).isEqualTo("https://files.example.com");
    }
  }

  @Test
  void unknownOperationAndMalformedDocumentsAreClearErrors() {
    assertThatThrownBy(() -> orders.operation("deleteAllOrders")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("deleteAllOrders").hasMessageContaining("createRefund");
    Connection c = Connection.of("x", "openapi", new JsonObject().put("baseUrl", "http://localhost"), Map.of());
    assertThatThrownBy(() -> OpenApiConnector.parse(vertx, "x", "swagger: '2.0'\npaths: {}\n", "old.yaml", c))
        .isInstanceOf(ManifestException.class).hasMessageContaining("old.yaml").hasMessageContaining("OpenAPI 3.x");
    assertThatThrownBy(() -> OpenApiConnector.parse(vertx, "x", "{\"openapi\": ", "broken.json", c))
        .isInstanceOf(ManifestException.class).hasMessageContaining("broken.json").hasMessageContaining("JSON");
    assertThatThrownBy(() -> OpenApiConnector.parse(vertx, "x", "openapi: [3\n  paths", "broken.yaml", c))
        .isInstanceOf(ManifestException.class).hasMessageContaining("broken.yaml").hasMessageContaining("YAML");
    assertThatThrownBy(() -> OpenApiConnector.parse(vertx, "x", "openapi: 3.0.0\npaths:\n  /a:\n    post:\n"
        + "      operationId: a\n      x-ratchet-agent: { retry: often }\n", "ext.yaml", c))
        .isInstanceOf(ManifestException.class).hasMessageContaining("operation 'a'")
        .hasMessageContaining("x-ratchet-agent.retry");
  }
}
