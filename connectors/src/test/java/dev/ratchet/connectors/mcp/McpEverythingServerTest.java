package dev.ratchet.connectors.mcp;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.SourceHealth;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.ratchet.connectors.mcp.TestInvocations.named;
import static dev.ratchet.connectors.mcp.TestInvocations.of;
import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/** Against the official reference server {@code server-everything}, over stdio. */
class McpEverythingServerTest extends McpSourceTestBase {

  @Test
  void contentPartsKeepTheirMcpTypes() throws Exception {
    source = McpToolSource.create(vertx, EverythingMcpServer.stdio("everything").build());
    List<Tool> tools = await(source.tools(vertx));

    ToolResult annotated = await(named(tools, "get-annotated-message")
        .invoke(of(new JsonObject().put("messageType", "success").put("includeImage", true))));
    assertThat(annotated.outcome()).isEqualTo(Outcome.SUCCEEDED);
    JsonArray parts = (JsonArray) annotated.value();
    assertThat(parts.getJsonObject(0).getString("type")).isEqualTo("text");
    assertThat(parts.getJsonObject(0).getString("text")).isEqualTo("Operation completed successfully");
    assertThat(parts.getJsonObject(1).getString("type")).isEqualTo("image");
    assertThat(parts.getJsonObject(1).getString("mimeType")).isEqualTo("image/png");
    assertThat(parts.getJsonObject(1).getString("data")).isNotBlank();

    ToolResult links = await(named(tools, "get-resource-links").invoke(of(new JsonObject().put("count", 2))));
    JsonArray linkParts = (JsonArray) links.value();
    assertThat(linkParts).hasSize(3);
    assertThat(linkParts.getJsonObject(0).getString("type")).isEqualTo("text");
    assertThat(linkParts.getJsonObject(1).getString("type")).isEqualTo("resource_link");
    assertThat(linkParts.getJsonObject(1).getString("uri")).isNotBlank();
    assertThat(linkParts.getJsonObject(2).getString("name")).isEqualTo("Text Resource 2");
  }

  @Test
  void structuredContentIsTheResultAsTheServerGaveIt() throws Exception {
    source = McpToolSource.create(vertx, EverythingMcpServer.stdio("everything").build());
    ToolResult weather = await(named(await(source.tools(vertx)), "get-structured-content")
        .invoke(of(new JsonObject().put("location", "Chicago"))));
    assertThat(weather.value()).isEqualTo(new JsonObject().put("temperature", 36)
        .put("conditions", "Light rain / drizzle").put("humidity", 82));
  }

  @Test
  void theCatalogueShowsAnMcpToolsSchemaAsTheServerDeclaredIt() throws Exception {
    source = McpToolSource.create(vertx, EverythingMcpServer.stdio("everything").build());
    ToolCatalog catalog = await(ToolCatalog.resolve(vertx, AgentDefinition.builder("a").toolSource(source).build()));
    ToolCatalog.Entry entry = catalog.get("get-annotated-message");
    assertThat(entry.validator().problems(new JsonObject().put("messageType", "nope"))).contains("messageType");

    String declared = named(await(source.tools(vertx)), "get-annotated-message").inputSchema().encode();
    assertThat(entry.tool().inputSchema().encode()).isEqualTo(declared).doesNotContain("__absolute_uri__");
    assertThat(entry.toJson().getJsonObject("inputSchema").encode()).isEqualTo(declared);
  }

  @Test
  void aToolThatRunsOnlyAsATaskIsNotOfferedAndTheCatalogueSaysWhy() throws Exception {
    source = McpToolSource.create(vertx, EverythingMcpServer.stdio("everything").build());
    ToolCatalog catalog = await(ToolCatalog.resolve(vertx, AgentDefinition.builder("a").toolSource(source).build()));
    assertThat(catalog.get("simulate-research-query")).isNull();
    assertThat(catalog.get("echo")).isNotNull();
    assertThat(source.withheldTools()).containsKey("simulate-research-query");
    SourceHealth health = await(catalog.sourcesHealth(vertx, 5_000)).get(0);
    assertThat(health.status()).isEqualTo("healthy");
    assertThat(health.detail()).contains("simulate-research-query").contains("taskSupport: required");
  }

  @Test
  void theCatalogueShowsEachToolsTitleAndWhetherItReachesAnOpenWorld() throws Exception {
    source = McpToolSource.create(vertx, EverythingMcpServer.stdio("everything").build());
    ToolCatalog catalog = await(ToolCatalog.resolve(vertx, AgentDefinition.builder("a").toolSource(source).build()));
    JsonObject annotated = catalog.get("get-annotated-message").toJson();
    assertThat(annotated.getString("title")).isEqualTo("Get Annotated Message Tool");
    assertThat(annotated.getBoolean("openWorld")).isFalse();
  }

  @Test
  void promptsAndResourceTemplatesCanBeListedWhenPromptsAndResourcesAreOffered() throws Exception {
    source = McpToolSource.create(vertx, EverythingMcpServer.stdio("everything").offerPrompts(true)
        .offerResources(true).build());
    List<Tool> tools = await(source.tools(vertx));

    JsonObject prompts = (JsonObject) await(named(tools, "everything_list_prompts").invoke(of(new JsonObject())))
        .value();
    assertThat(prompts.getJsonArray("prompts")).isNotEmpty();
    String first = prompts.getJsonArray("prompts").getJsonObject(0).getString("name");
    assertThat(first).isNotBlank();

    JsonObject templates = (JsonObject) await(named(tools, "everything_list_resource_templates")
        .invoke(of(new JsonObject()))).value();
    assertThat(templates.getJsonArray("resourceTemplates")).isNotEmpty();
    assertThat(templates.getJsonArray("resourceTemplates").getJsonObject(0).getString("uriTemplate")).contains("{");
  }
}
