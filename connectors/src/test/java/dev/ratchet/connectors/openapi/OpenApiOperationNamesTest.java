package dev.ratchet.connectors.openapi;

import dev.ratchet.connectors.Connection;
import dev.ratchet.connectors.ConnectorToolSource;
import dev.ratchet.connectors.ManifestException;
import dev.ratchet.connectors.OpenApiConnector;
import dev.ratchet.connectors.OpenApiWarning;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.ratchet.connectors.ConnectorTool.connectorTool;
import static dev.ratchet.connectors.testing.Invocations.await;
import static dev.ratchet.connectors.testing.Invocations.invocation;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Operations without an {@code operationId} are offered under a name derived from their method and
 * path, which {@code x-ratchet-agent.name} overrides; a 3.1 document without paths loads and says
 * it has nothing to offer.
 */
class OpenApiOperationNamesTest {

  private static final String PETS = """
      openapi: 3.0.3
      info: { title: Pets, version: "1" }
      paths:
        /pets:
          get:
            responses: { "200": { description: ok } }
          post:
            operationId: createPet
            responses: { "201": { description: ok } }
        /pets/{petId}:
          parameters:
            - { name: petId, in: path, required: true, schema: { type: integer } }
          get:
            responses: { "200": { description: ok } }
          delete:
            x-ratchet-agent: { name: removePet }
            responses: { "204": { description: gone } }
        /stores/{storeId}/opening-hours:
          get:
            parameters:
              - { name: storeId, in: path, required: true, schema: { type: string } }
            responses: { "200": { description: ok } }
      """;

  Vertx vertx;
  HttpServer server;
  OpenApiConnector pets;

  @BeforeEach
  void setUp() {
    vertx = Vertx.vertx();
    server = await(vertx.createHttpServer().requestHandler(req -> req.response().putHeader("Content-Type", "application/json")
        .end(new JsonObject().put("method", req.method().name()).put("path", req.path()).encode()))
        .listen(0, "127.0.0.1"));
    pets = OpenApiConnector.parse(vertx, "pets", PETS, "pets.yaml", connection());
  }

  @AfterEach
  void tearDown() {
    pets.close();
    await(vertx.close());
  }

  private Connection connection() {
    return Connection.of("pets", "openapi", new JsonObject().put("baseUrl", "http://127.0.0.1:" + server.actualPort()),
        Map.of());
  }

  private Tool tool(String name) {
    return await(ConnectorToolSource.of(connectorTool(pets.operation(name))).tools(vertx)).get(0);
  }

  @Test
  void operationsWithoutOperationIdAreNamedFromTheirMethodAndPath() {
    assertThat(pets.operationIds()).containsExactly("get_pets", "createPet", "get_pets_by_pet_id", "removePet",
        "get_stores_by_store_id_opening_hours");
    assertThat(tool("get_pets_by_pet_id").name()).isEqualTo("pets_get_pets_by_pet_id");

    ToolResult found = await(tool("get_pets_by_pet_id").invoke(invocation("t1", 0, new JsonObject().put("petId", 7))));
    assertThat(found.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(found.value()).isEqualTo(new JsonObject().put("method", "GET").put("path", "/pets/7"));
  }

  @Test
  void theDerivedNamesAreListedAsWarningsThatLeaveTheOperationOffered() {
    assertThat(pets.warnings()).filteredOn(w -> "get_pets".equals(w.operationId())).singleElement()
        .satisfies(w -> {
          assertThat(w.offered()).isTrue();
          assertThat(w.location()).isEqualTo("paths./pets.get");
          assertThat(w.message()).contains("no operationId").contains("'get_pets'").contains("x-ratchet-agent.name");
        });
    assertThat(pets.warnings()).extracting(OpenApiWarning::message).noneMatch(m -> m.contains("is not offered"));
  }

  @Test
  void xRatchetAgentNameOverridesTheDerivedName() {
    assertThat(pets.operationIds()).contains("removePet").doesNotContain("delete_pets_by_pet_id");
    ToolResult removed = await(tool("removePet").invoke(invocation("t1", 0, new JsonObject().put("petId", 3))));
    assertThat(removed.value()).isEqualTo(new JsonObject().put("method", "DELETE").put("path", "/pets/3"));

    String bad = PETS.replace("name: removePet", "name: 'remove pet'");
    assertThatThrownBy(() -> OpenApiConnector.parse(vertx, "pets", bad, "bad.yaml", connection()))
        .isInstanceOf(ManifestException.class).hasMessageContaining("bad.yaml")
        .hasMessageContaining("x-ratchet-agent.name").hasMessageContaining("remove pet");
  }

  @Test
  void aDocumentWithOnlyWebhooksHasNothingToOffer() {
    String hooks = """
        openapi: 3.1.0
        info: { title: Hooks, version: "1" }
        webhooks:
          newPet:
            post:
              requestBody: { content: { application/json: { schema: { type: object } } } }
              responses: { "200": { description: ok } }
        """;
    try (OpenApiConnector only = OpenApiConnector.parse(vertx, "hooks", hooks, "hooks.yaml", connection())) {
      assertThat(only.operationIds()).isEmpty();
      assertThat(only.warnings()).extracting(OpenApiWarning::message).contains("no paths: nothing to offer");
    }
    String noPaths30 = "openapi: 3.0.3\ninfo: { title: Old, version: '1' }\n";
    assertThatThrownBy(() -> OpenApiConnector.parse(vertx, "old", noPaths30, "old.yaml", connection()))
        .isInstanceOf(ManifestException.class).hasMessageContaining("field 'paths'");
  }
}
