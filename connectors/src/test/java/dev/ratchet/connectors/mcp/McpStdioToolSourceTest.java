package dev.ratchet.connectors.mcp;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static dev.ratchet.connectors.mcp.TestInvocations.named;
import static dev.ratchet.connectors.mcp.TestInvocations.of;
import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A stdio MCP server's tools as Ratchet offers and runs them: effect classes, approvals, pins, errors, secrets. */
class McpStdioToolSourceTest extends McpSourceTestBase {

  private static final String TOKEN = "tok-very-secret-4711";

  static McpServerConfig.Builder stdioServer(String name) {
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String java = ProcessHandle.current().info().command().orElse("java");
    // the test server lives for one test: C1 alone and the serial collector start it faster
    return McpServerConfig.stdio(name, java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", classpath,
            TestMcpServer.class.getName())
        .env("MCP_TEST_TOKEN", TOKEN)
        .reconnectBackoff(Duration.ofMillis(100), Duration.ofMillis(400));
  }

  @Test
  void offersServerToolsWithEffectClassAndApprovalFromAnnotations() {
    source = McpToolSource.create(vertx, stdioServer("local").build());
    List<Tool> tools = await(source.tools(vertx));

    Tool weather = named(tools, "get_weather");
    assertThat(weather.effectClass()).isEqualTo(EffectClass.READ);
    assertThat(weather.approvalRule().isNever()).isTrue();
    assertThat(weather.source()).isEqualTo("mcp:local");
    assertThat(weather.inputSchema().getJsonObject("properties").containsKey("city")).isTrue();

    Tool upsert = named(tools, "upsert_note");
    assertThat(upsert.effectClass()).isEqualTo(EffectClass.IDEMPOTENT_WRITE);
    assertThat(upsert.approvalRule().isNever()).isTrue();

    Tool unannotated = named(tools, "send_message");
    assertThat(unannotated.effectClass()).isEqualTo(EffectClass.NON_IDEMPOTENT_WRITE);
    assertThat(unannotated.approvalRule().reasonToAsk(new JsonObject()))
        .contains("no annotations: treated as a destructive write").doesNotContain("MCP annotations");

    Tool destructive = named(tools, "delete_all");
    assertThat(destructive.effectClass()).isEqualTo(EffectClass.NON_IDEMPOTENT_WRITE);
    assertThat(destructive.approvalRule().reasonToAsk(new JsonObject())).contains("destructive");
    assertThat(source.health().healthy()).isTrue();
  }

  @Test
  void runsToolsOverStdioAndReturnsTheirContent() {
    source = McpToolSource.create(vertx, stdioServer("local").build());
    List<Tool> tools = await(source.tools(vertx));

    ToolResult weather = await(named(tools, "get_weather").invoke(of(new JsonObject().put("city", "Lyon"))));
    assertThat(weather.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(weather.value()).isEqualTo("sunny in Lyon");

    ToolResult structured = await(named(tools, "structured").invoke(of(new JsonObject())));
    assertThat(structured.value()).isInstanceOf(JsonObject.class);
    assertThat(((JsonObject) structured.value()).getInteger("count")).isEqualTo(3);
  }

  @Test
  void pinnedEffectClassAndApprovalWinOverAnnotations() {
    source = McpToolSource.create(vertx, stdioServer("local")
        .pin("get_weather", McpToolPin.of(EffectClass.NON_IDEMPOTENT_WRITE, true))
        .pin("send_message", McpToolPin.effect(EffectClass.IDEMPOTENT_WRITE).withApproval(false))
        .build());
    List<Tool> tools = await(source.tools(vertx));

    assertThat(named(tools, "get_weather").effectClass()).isEqualTo(EffectClass.NON_IDEMPOTENT_WRITE);
    assertThat(named(tools, "get_weather").approvalRule().reasonToAsk(new JsonObject())).contains("application pin");
    assertThat(named(tools, "send_message").effectClass()).isEqualTo(EffectClass.IDEMPOTENT_WRITE);
    assertThat(named(tools, "send_message").approvalRule().isNever()).isTrue();
  }

  @Test
  void toolErrorsAreRejectedAndSecretsNeverReachResultsErrorsOrConfigText() {
    McpServerConfig config = stdioServer("local").build();
    source = McpToolSource.create(vertx, config);
    List<Tool> tools = await(source.tools(vertx));

    ToolResult failed = await(named(tools, "fail_tool").invoke(of(new JsonObject())));
    assertThat(failed.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(failed.retryable()).isFalse();
    assertThat(failed.error()).contains("quota exceeded for ***").doesNotContain(TOKEN);

    ToolResult leaked = await(named(tools, "leak_secret").invoke(of(new JsonObject())));
    assertThat(leaked.value()).isEqualTo("token=***");

    assertThat(config.toString()).contains("MCP_TEST_TOKEN=***").doesNotContain(TOKEN);
    assertThat(source.toString()).doesNotContain(TOKEN);
  }

  @Test
  void whatTheServerPrintsIsLoggedWithSecretsRedacted() throws Exception {
    java.io.PrintStream original = System.err;
    java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
    System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      source = McpToolSource.create(vertx, stdioServer("local").build());
      await(source.tools(vertx));
      long until = System.currentTimeMillis() + 5_000;
      while (!captured.toString(java.nio.charset.StandardCharsets.UTF_8).contains("starting with token")
          && System.currentTimeMillis() < until) {
        Thread.sleep(20);
      }
    } finally {
      System.setErr(original);
    }
    String logs = captured.toString(java.nio.charset.StandardCharsets.UTF_8);
    assertThat(logs).contains("[mcp:local] test server starting with token ***").doesNotContain(TOKEN);
  }

  @Test
  void offersResourcesAndPromptsAsReadToolsWhenAsked() {
    source = McpToolSource.create(vertx, stdioServer("docs").offerResources(true).offerPrompts(true).build());
    List<Tool> tools = await(source.tools(vertx));

    Tool list = named(tools, "docs_list_resources");
    Tool read = named(tools, "docs_read_resource");
    Tool prompt = named(tools, "docs_get_prompt");
    assertThat(List.of(list, read, prompt)).allMatch(t -> t.effectClass() == EffectClass.READ);

    JsonObject listed = (JsonObject) await(list.invoke(of(new JsonObject()))).value();
    assertThat(listed.getJsonArray("resources").getJsonObject(0).getString("uri")).isEqualTo("note://readme");

    JsonObject content = (JsonObject) await(read.invoke(of(new JsonObject().put("uri", "note://readme")))).value();
    assertThat(content.getJsonArray("contents").getJsonObject(0).getString("text")).isEqualTo("hello from the readme");

    JsonObject greeting = (JsonObject) await(prompt.invoke(of(new JsonObject().put("name", "greet")
        .put("arguments", new JsonObject().put("who", "Ada"))))).value();
    assertThat(greeting.encode()).contains("Please greet Ada");
  }

  @Test
  void resourceAndPromptToolsAreNotOfferedByDefault() {
    source = McpToolSource.create(vertx, stdioServer("docs").build());
    List<Tool> tools = await(source.tools(vertx));
    assertThat(tools).noneMatch(t -> t.name().startsWith("docs_"));
  }

  @Test
  void aPinThatNamesNoToolOfTheServerIsAnErrorAtRegistration() {
    source = McpToolSource.create(vertx, stdioServer("local")
        .pin("get_wether", McpToolPin.of(EffectClass.NON_IDEMPOTENT_WRITE, true)).build());
    assertThatThrownBy(() -> await(ToolCatalog.resolve(vertx, AgentDefinition.builder("a").toolSource(source).build())
        )).hasMessageContaining("has no tool 'get_wether' named by a pin").hasMessageContaining("get_weather");
  }

  @Test
  void anAgentCanAskForEveryToolThatMayReachAnOpenWorld() {
    // the test server's tools carry no openWorldHint, which MCP reads as "open world"; get_weather is read-only
    source = McpToolSource.create(vertx, stdioServer("local").build());
    ToolCatalog catalog = await(ToolCatalog.resolve(vertx, AgentDefinition.builder("a").toolSource(source)
        .askForOpenWorldTools(true).policy(dev.ratchet.runtime.ToolPolicy.requireApproval("upsert_note", false))
        .build()));
    assertThat(catalog.get("get_weather").toJson().getBoolean("openWorld")).isTrue();
    assertThat(catalog.get("get_weather").approval().reasonToAsk(new JsonObject())).contains("open-world");
    assertThat(catalog.get("upsert_note").approval().isNever()).isTrue();
  }
}
