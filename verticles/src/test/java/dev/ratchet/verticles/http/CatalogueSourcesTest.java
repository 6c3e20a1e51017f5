package dev.ratchet.verticles.http;

import dev.ratchet.connectors.mcp.McpServerConfig;
import dev.ratchet.connectors.mcp.McpToolSource;
import dev.ratchet.connectors.mcp.TestMcpServer;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.testing.Await;
import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/** The catalogue shows MCP tools with their source and effect class, and each source's health. */
class CatalogueSourcesTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  @Test
  void mcpToolsAppearWithSourceAndEffectClassAndAServerThatGoesAwayShowsUnhealthy() throws Exception {
    Server mcpServer = TestMcpServer.startHttp(0, false);
    Vertx vertx = Vertx.vertx();
    try {
      RatchetNode ratchet = await(RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl(REDIS.url())
          .keyPrefix(REDIS.keyPrefix())));
      McpToolSource mcp = McpToolSource.create(vertx, McpServerConfig.http("notes",
          "http://127.0.0.1:" + TestMcpServer.port(mcpServer) + "/mcp").healthCheckInterval(Duration.ofMillis(300))
          .reconnectBackoff(Duration.ofMillis(100), Duration.ofMillis(500)).build());
      FunctionToolSource local = FunctionToolSource.create("local")
          .read("now", "the time", new JsonObject().put("type", "object"), inv -> Future.succeededFuture("noon"));
      await(ratchet.register(AgentDefinition.builder("assistant").toolSource(mcp).toolSource(local).build()));
      HttpServerVerticle server = new HttpServerVerticle(ratchet, HttpOptions.create().port(0).host("127.0.0.1")
          .token("bot", Role.AGENT, PasswordHash.hashToken("rt_catalogue-token-123456")));
      await(vertx.deployVerticle(server));
      Http http = Http.bearer("http://127.0.0.1:" + server.actualPort(), "rt_catalogue-token-123456");

      JsonObject catalogue = http.get("/api/agents/assistant/tools").json();
      JsonObject weather = tool(catalogue.getJsonArray("tools"), "get_weather");
      assertThat(weather.getString("source")).isEqualTo("mcp:notes");
      assertThat(weather.getString("effectClass")).isEqualTo("read");
      assertThat(tool(catalogue.getJsonArray("tools"), "upsert_note").getString("effectClass"))
          .isEqualTo("idempotent_write");
      assertThat(tool(catalogue.getJsonArray("tools"), "send_message").getString("effectClass"))
          .isEqualTo("non_idempotent_write");
      assertThat(tool(catalogue.getJsonArray("tools"), "now").getString("source")).isEqualTo("function");
      assertThat(health(catalogue, "mcp:notes")).isEqualTo("healthy");
      assertThat(health(catalogue, "local")).isEqualTo("local");

      mcpServer.stop();
      Await.until(() -> "unhealthy".equals(health(http.get("/api/agents/assistant/tools").json(), "mcp:notes")), 15);
      await(ratchet.close());
    } finally {
      await(vertx.close());
      if (!mcpServer.isStopped()) {
        mcpServer.stop();
      }
    }
  }

  private static JsonObject tool(JsonArray tools, String name) {
    return tools.stream().map(JsonObject.class::cast).filter(t -> name.equals(t.getString("name"))).findFirst()
        .orElseThrow(() -> new AssertionError("no tool " + name + " in " + tools));
  }

  private static String health(JsonObject catalogue, String source) {
    return catalogue.getJsonArray("sources").stream().map(JsonObject.class::cast)
        .filter(s -> source.equals(s.getString("source"))).map(s -> s.getString("status")).findFirst()
        .orElse("missing");
  }
}
