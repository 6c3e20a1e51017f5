package dev.ratchet.server.config;

import dev.ratchet.connectors.Connection;
import dev.ratchet.connectors.Connections;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ToolCatalog;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/** Every kind of problem an agent file can have is reported with its file, line and field, and nothing loads. */
class AgentFilesTest extends AgentFilesFixture {

  private static final String SPEC = """
      openapi: 3.0.3
      info: {title: Shop, version: "1"}
      servers: [{url: "http://127.0.0.1:1"}]
      paths:
        /orders/{orderId}:
          get:
            operationId: getOrder
            parameters: [{name: orderId, in: path, required: true, schema: {type: string}}]
            responses: {"200": {description: ok}}
        /orders/{orderId}/cancel:
          post:
            operationId: cancelOrder
            parameters: [{name: orderId, in: path, required: true, schema: {type: string}}]
            responses: {"200": {description: ok}}
        /orders/{orderId}/refunds:
          post:
            operationId: refundOrder
            parameters: [{name: orderId, in: path, required: true, schema: {type: string}}]
            requestBody:
              required: true
              content:
                application/json:
                  schema: {type: object, properties: {amount: {type: number}}, required: [amount]}
            responses: {"200": {description: ok}}
      """;

  private Path spec;
  private final Connections connections = Connections.of(Connection.of("shop-api", "openapi",
      new JsonObject().put("baseUrl", "http://127.0.0.1:1").put("connectorId", "shop"), Map.of()));

  @BeforeEach
  void setUp() throws IOException {
    spec = dir.resolve("shop.yaml");
    Files.writeString(spec, SPEC);
  }

  @Test
  void aValidFileGivesTheAgentWithItsToolsApprovalsAndOrigins() throws IOException {
    write("shop.yaml", """
        agent: order-support
        maxTurns: 8
        tools:
          - openapi: %s
            connection: shop-api
            operations: [getOrder, cancelOrder, refundOrder]
            approval:
              cancelOrder: always
              refundOrder: { when: { properties: { body: { properties: { amount: { exclusiveMinimum: 100 } } } } } }
        policies:
          openWorld: ask
        """.formatted(spec));
    LoadedAgents loaded = await(AgentFiles.load(vertx, agents, connections, models));
    AgentDefinition agent = loaded.agents().get(0);
    assertThat(agent.name()).isEqualTo("order-support");
    assertThat(agent.maxTurns()).isEqualTo(8);
    assertThat(agent.askForOpenWorldTools()).isTrue();
    assertThat(agent.origin()).isEqualTo(agents.resolve("shop.yaml") + ":1");
    ToolCatalog catalog = await(ToolCatalog.resolve(vertx, agent));
    assertThat(catalog.origin("shop-api")).isEqualTo(agents.resolve("shop.yaml") + ":4");
    assertThat(catalog.get("shop_get_order").approval().isNever()).isTrue();
    assertThat(catalog.get("shop_cancel_order").approval().describe()).isEqualTo("always (agent file)");
    assertThat(catalog.get("shop_refund_order").approval().describe()).isEqualTo("when body.amount > 100 (agent file)");
    await(loaded.close());
  }

  @Test
  void anUnknownFieldNamesTheFieldLineAndKnownFields() throws IOException {
    write("shop.yaml", """
        agent: order-support
        tools:
          - openapi: %s
            connection: shop-api
            operationz: [getOrder]
        """.formatted(spec));
    assertThat(errors()).containsExactly(file("shop.yaml") + ":3: tools[0]: field 'operations' is missing",
        file("shop.yaml") + ":5: tools[0]: unknown field 'operationz' (known: openapi, connection, operations,"
            + " exclude, approval, rename, effect, timeouts)");
  }

  @Test
  void anUnknownOperationNamesTheDocumentAndItsNearMatches() throws IOException {
    write("shop.yaml", """
        agent: order-support
        tools:
          - openapi: %s
            connection: shop-api
            operations:
              - getOrder
              - cancelOrder
              - refundOrdr
        """.formatted(spec));
    assertThat(errors()).containsExactly(file("shop.yaml") + ":8: tools[0].operations[2]: unknown operation"
        + " 'refundOrdr' in " + spec + " (did you mean refundOrder?)");
  }

  @Test
  void aMissingConnectionNamesTheConfiguredOnes() throws IOException {
    write("shop.json", """
        {
          "agent": "order-support",
          "tools": [
            {"openapi": "%s",
             "connection": "shop",
             "operations": ["getOrder"]}
          ]
        }
        """.formatted(spec));
    assertThat(errors()).containsExactly(file("shop.json") + ":5: tools[0].connection: connection 'shop' is not"
        + " configured in the connections file or RATCHET_CONNECTION_* variables (configured: shop-api)");
  }

  @Test
  void anApprovalSchemaThatIsNotJsonSchemaIsRefused() throws IOException {
    write("shop.yaml", """
        agent: order-support
        tools:
          - openapi: %s
            connection: shop-api
            operations: [refundOrder]
            approval:
              refundOrder:
                when: { properties: { body: { properties: { amount: { exclusiveMinimum: "a hundred" } } } } }
        """.formatted(spec));
    List<String> errors = errors();
    assertThat(errors).hasSize(1);
    assertThat(errors.get(0)).startsWith(file("shop.yaml") + ":8: tools[0].approval.refundOrder.when: not a valid"
        + " JSON Schema: at '/properties/body/properties/amount/exclusiveMinimum': ");
  }

  @Test
  void anApprovalThatIsNeitherAWordNorASchemaIsRefused() throws IOException {
    writeCancelOrderApproval("sometimes");
    assertThat(errors()).containsExactly(file("shop.yaml") + ":7: tools[0].approval.cancelOrder: must be always,"
        + " never or { when: <JSON Schema over the arguments>, allowEdit: true|false }");
  }

  @Test
  void anApprovalWithAllowEditLetsApproversEditThatOperationsArgumentsOnly() throws IOException {
    write("shop.yaml", """
        agent: order-support
        tools:
          - openapi: %s
            connection: shop-api
            operations: [getOrder, cancelOrder, refundOrder]
            approval:
              cancelOrder: always
              refundOrder: { allowEdit: true }
              getOrder: { when: { required: [orderId] }, allowEdit: true }
        """.formatted(spec));
    LoadedAgents loaded = await(AgentFiles.load(vertx, agents, connections, models));
    ToolCatalog catalog = await(ToolCatalog.resolve(vertx, loaded.agents().get(0)));
    assertThat(catalog.get("shop_refund_order").approval().allowsEdit()).isTrue();
    assertThat(catalog.get("shop_refund_order").approval().describe()).isEqualTo("always (agent file)");
    assertThat(catalog.get("shop_get_order").approval().allowsEdit()).isTrue();
    assertThat(catalog.get("shop_get_order").approval().describe()).startsWith("when ");
    assertThat(catalog.get("shop_cancel_order").approval().allowsEdit()).isFalse();
    await(loaded.close());
  }

  @Test
  void anAllowEditThatIsNotABooleanIsRefused() throws IOException {
    writeCancelOrderApproval("{ allowEdit: sure }");
    assertThat(String.join("\n", errors())).contains("tools[0].approval.cancelOrder.allowEdit: must be true or false");
  }

  @Test
  void anUnreachableDocumentIsReportedWithItsAddress() throws IOException {
    int closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    write("shop.yaml", """
        agent: order-support
        tools:
          - connection: shop-api
            openapi: http://127.0.0.1:%d/shop.yaml
            operations: [getOrder]
        """.formatted(closed));
    List<String> errors = errors();
    assertThat(errors).hasSize(1);
    assertThat(errors.get(0)).startsWith(file("shop.yaml") + ":4: tools[0].openapi: cannot read http://127.0.0.1:"
        + closed + "/shop.yaml (").contains("onnection refused");
  }

  @Test
  void aMissingDocumentIsReportedWithItsPath() throws IOException {
    write("shop.yaml", """
        agent: order-support
        tools:
          - openapi: %s
            connection: shop-api
            operations: [getOrder]
        """.formatted(dir.resolve("nowhere.yaml")));
    assertThat(errors()).containsExactly(file("shop.yaml") + ":3: tools[0].openapi: " + dir.resolve("nowhere.yaml")
        + ": cannot be read (NoSuchFileException)");
  }

  @Test
  void twoFilesDeclaringOneAgentAreRefusedNamingTheFirst() throws IOException {
    write("a.yaml", "agent: order-support\n");
    write("b.yaml", "# the same agent again\nagent: order-support\n");
    assertThat(errors()).containsExactly(file("b.yaml") + ":2: agent: agent 'order-support' is also declared in "
        + file("a.yaml") + ":1");
  }

  @Test
  void aFileThatIsNotYamlNamesTheLine() throws IOException {
    write("shop.yaml", """
        agent: order-support
        tools:
          - openapi: [unclosed
        maxTurns: 3
        """);
    List<String> errors = errors();
    assertThat(errors).hasSize(1);
    assertThat(errors.get(0)).matches(java.util.regex.Pattern.quote(file("shop.yaml")) + ":[45]: not valid YAML: .*");
  }

  @Test
  void everyProblemOfEveryFileIsReportedAtOnce() throws IOException {
    write("a.yaml", "agent: a\nmaxTurns: 0\n");
    write("b.yaml", "agent: 'b c'\n");
    assertThat(errors()).hasSize(2).allMatch(e -> e.startsWith(file("a.yaml") + ":2: maxTurns: ")
        || e.startsWith(file("b.yaml") + ":1: agent: "));
  }

  @Test
  void aCredentialWrittenInAFileIsRefusedWithoutRepeatingItAndASecretReferenceMustResolve() throws IOException {
    write("files.yaml", """
        agent: files
        tools:
          - mcp:
              url: https://mcp.example.com/mcp
              headers:
                Authorization: "Bearer ghp_written_in_the_file"
                X-Team: "${secret:team-token}"
        """);
    List<String> errors = errors();
    assertThat(errors).containsExactly(
        file("files.yaml") + ":6: tools[0].mcp.headers.Authorization: holds a credential written in the file; write"
            + " ${secret:NAME} and configure the connection NAME in the connections file or RATCHET_CONNECTION_*"
            + " variables",
        file("files.yaml") + ":7: tools[0].mcp.headers.X-Team: secret 'team-token' is not configured: no connection"
            + " named 'team-token' in the connections file or RATCHET_CONNECTION_* variables (configured: shop-api)");
    assertThat(String.join("\n", errors)).doesNotContain("ghp_written_in_the_file");
  }

  /** shop.yaml offering cancelOrder alone, with {@code approval} as its approval (line 7 of the file). */
  private void writeCancelOrderApproval(String approval) throws IOException {
    write("shop.yaml", """
        agent: order-support
        tools:
          - openapi: %s
            connection: shop-api
            operations: [cancelOrder]
            approval:
              cancelOrder: %s
        """.formatted(spec, approval));
  }

  private List<String> errors() {
    return errors(connections);
  }
}
