package dev.ratchet.verticles;

import dev.ratchet.connectors.mcp.McpServerConfig;
import dev.ratchet.connectors.mcp.McpToolSource;
import dev.ratchet.connectors.mcp.TestMcpServer;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.testing.Await;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An agent's catalogue follows its MCP server's {@code notifications/tools/list_changed} (a real
 * MCP server built with the MCP Java SDK, over streamable HTTP): new turns see the new tools, a
 * turn in flight keeps the catalogue it was validated against, and the journal records which.
 */
class McpListChangedCatalogueTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private Vertx vertx;
  private Server jetty;
  private McpToolSource mcp;
  private RatchetNode ratchet;

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    jetty = TestMcpServer.startHttp(0, false);
    mcp = McpToolSource.create(vertx, McpServerConfig.http("remote", "http://127.0.0.1:" + TestMcpServer.port(jetty)
        + "/mcp").requestTimeout(Duration.ofSeconds(5)).reconnectBackoff(Duration.ofMillis(100),
        Duration.ofMillis(300)).build());
    ratchet = await(RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl(REDIS.url())
        .keyPrefix(REDIS.keyPrefix())));
  }

  @AfterEach
  void stop() throws Exception {
    await(ratchet.close());
    await(mcp.close());
    jetty.stop();
    await(vertx.close());
  }

  @Test
  void aToolTheServerAddsIsOfferedToNewTurnsWhileATurnInFlightKeepsItsCatalogue() {
    FunctionToolSource local = FunctionToolSource.create("local")
        .tool(FunctionToolSource.define("hold", EffectClass.NON_IDEMPOTENT_WRITE).approval(ApprovalRule.always())
            .handler(inv -> Future.succeededFuture("held")));
    String before = await(ratchet.register(AgentDefinition.builder("weather").toolSource(mcp).toolSource(local)
        .build())).version();
    assertThat(ratchet.queries().catalog("weather").get("late_tool")).isNull();

    Future<TurnResult> inFlight = ratchet.submit("weather", "s-old", Turn.of("t1",
        new ToolCall("late_tool", new JsonObject()), new ToolCall("hold", null)));
    Await.until(() -> !await(ratchet.pendingApprovals()).isEmpty(), 10);

    TestMcpServer.addLateTool();
    Await.until(() -> !ratchet.queries().catalog("weather").version().equals(before), 10);
    assertThat(ratchet.queries().catalog("weather").get("late_tool").tool().effectClass()).isEqualTo(EffectClass.READ);

    TurnResult fresh = await(ratchet.submit("weather", "s-new", Turn.of("t1",
        new ToolCall("late_tool", new JsonObject()))));
    assertThat(fresh.call(0).outcome().wireName()).isEqualTo("succeeded");

    ApprovalRequest pending = await(ratchet.pendingApprovals()).get(0);
    await(ratchet.decide(ApprovalDecision.approve(pending, "alice", "ok")));
    TurnResult old = await(inFlight);
    assertThat(old.call(0).outcome().wireName()).isEqualTo("failed");
    assertThat(old.call(0).error()).contains("unknown tool 'late_tool'");
    assertThat(old.call(1).result()).isEqualTo("held");

    assertThat(catalogueOf("s-old")).isEqualTo(before);
    assertThat(catalogueOf("s-new")).isEqualTo(ratchet.queries().catalog("weather").version());
  }

  private String catalogueOf(String sessionId) {
    return await(ratchet.journal().events(sessionId, null, 100)).stream()
        .filter(e -> "turn.submitted".equals(e.getString("type"))).findFirst().orElseThrow()
        .getJsonObject("data").getString("catalogue");
  }
}
