package dev.ratchet.connectors.mcp;

import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.Secret;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolNotSentException;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static dev.ratchet.connectors.mcp.TestInvocations.named;
import static dev.ratchet.connectors.mcp.TestInvocations.of;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class McpHttpToolSourceTest {

  private Vertx vertx;
  private Server jetty;
  private int port;
  private McpToolSource source;

  @BeforeEach
  void setUp() throws Exception {
    vertx = Vertx.vertx();
    jetty = TestMcpServer.startHttp(0, false);
    port = TestMcpServer.port(jetty);
    TestMcpServer.SENT.set(0);
  }

  @AfterEach
  void tearDown() throws Exception {
    if (source != null) {
      source.close().await();
    }
    jetty.stop();
    vertx.close().await();
  }

  private McpServerConfig.Builder httpServer() {
    return McpServerConfig.http("remote", "http://127.0.0.1:" + port + "/mcp")
        .requestTimeout(Duration.ofSeconds(5))
        .reconnectBackoff(Duration.ofMillis(100), Duration.ofMillis(300));
  }

  @Test
  void listsAndRunsToolsOverStreamableHttp() {
    source = McpToolSource.create(vertx, httpServer().build());
    List<Tool> tools = source.tools(vertx).await();

    assertThat(named(tools, "get_weather").effectClass()).isEqualTo(EffectClass.READ);
    assertThat(named(tools, "send_message").source()).isEqualTo("mcp:remote");

    ToolResult sent = named(tools, "send_message").invoke(of(new JsonObject().put("text", "hi"))).await();
    assertThat(sent.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(sent.value()).isEqualTo("sent #1");
    assertThat(TestMcpServer.SENT.get()).isEqualTo(1);
  }

  @Test
  void everyAttemptOfACallCarriesTheSameIdempotencyKeyInItsMeta() {
    source = McpToolSource.create(vertx, httpServer().build());
    Tool echo = named(source.tools(vertx).await(), "echo_meta");
    dev.ratchet.runtime.ToolInvocation first = of(new JsonObject());
    dev.ratchet.runtime.ToolInvocation retry = new dev.ratchet.runtime.ToolInvocation(first.sessionId(), first.callId(),
        first.idempotencyKey(), 2, first.arguments(), first.deadline());

    assertThat(echo.invoke(first).await().value()).isEqualTo(first.idempotencyKey().value());
    assertThat(echo.invoke(retry).await().value()).isEqualTo(first.idempotencyKey().value());
  }

  @Test
  void aServerThatGoesAwayFailsWritesAsNotRunAndIsReconnectedWhenItReturns() throws Exception {
    source = McpToolSource.create(vertx, httpServer().build());
    List<Tool> tools = source.tools(vertx).await();
    Tool send = named(tools, "send_message");

    jetty.stop();
    assertThatThrownBy(() -> send.invoke(of(new JsonObject().put("text", "lost?"))).await())
        .isInstanceOf(ToolNotSentException.class)
        .hasMessageStartingWith("the tool did not run, so it is safe to call again");
    assertThat(TestMcpServer.SENT.get()).isZero();
    assertThat(source.health().healthy()).isFalse();
    assertThat(source.health().lastError()).isNotBlank();

    // while it stays away, the last listed tools are still offered and keep failing as "did not run"
    assertThat(source.tools(vertx).await()).extracting(Tool::name).contains("send_message");
    assertThatThrownBy(() -> send.invoke(of(new JsonObject().put("text", "lost?"))).await())
        .isInstanceOf(ToolNotSentException.class);

    jetty = TestMcpServer.startHttp(port, false);
    long until = System.currentTimeMillis() + 10_000;
    while (!source.checkHealth().await().healthy() && System.currentTimeMillis() < until) {
      Thread.sleep(50);
    }
    assertThat(source.health().status()).isEqualTo("healthy");
    ToolResult sent = send.invoke(of(new JsonObject().put("text", "back"))).await();
    assertThat(sent.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(TestMcpServer.SENT.get()).isEqualTo(1);
  }

  @Test
  void aServerThatGoesAwayQuietlyShowsUnhealthyWithoutAnyCall() throws Exception {
    source = McpToolSource.create(vertx, httpServer().healthCheckInterval(Duration.ofMillis(100)).build());
    source.connect().await();
    assertThat(source.health().healthy()).isTrue();

    jetty.stop();
    long until = System.currentTimeMillis() + 10_000;
    while (source.health().healthy() && System.currentTimeMillis() < until) {
      Thread.sleep(20);
    }
    assertThat(source.health().status()).isEqualTo("unhealthy");
    assertThat(source.health().lastError()).contains("ping failed");
  }

  @Test
  void aServerThatLaterClaimsReadOnlyDoesNotLoosenWhatTheApplicationPinned() throws Exception {
    source = McpToolSource.create(vertx, httpServer()
        .pin("delete_all", McpToolPin.of(EffectClass.NON_IDEMPOTENT_WRITE, true)).build());
    Tool before = named(source.tools(vertx).await(), "delete_all");
    assertThat(before.effectClass()).isEqualTo(EffectClass.NON_IDEMPOTENT_WRITE);

    jetty.stop();
    jetty = TestMcpServer.startHttp(port, true);
    long until = System.currentTimeMillis() + 10_000;
    while (!source.checkHealth().await().healthy() && System.currentTimeMillis() < until) {
      Thread.sleep(50);
    }
    List<Tool> after = source.tools(vertx).await();
    Tool deleteAll = named(after, "delete_all");
    assertThat(deleteAll.effectClass()).isEqualTo(EffectClass.NON_IDEMPOTENT_WRITE);
    assertThat(deleteAll.approvalRule().reasonToAsk(new JsonObject())).isNotNull();
  }

  @Test
  void anUnpinnedToolFollowsTheServersAnnotations() throws Exception {
    jetty.stop();
    jetty = TestMcpServer.startHttp(port, true);
    source = McpToolSource.create(vertx, httpServer().build());
    assertThat(named(source.tools(vertx).await(), "delete_all").effectClass()).isEqualTo(EffectClass.READ);
  }

  @Test
  void aMissingHeaderSecretFailsTheCallAsNotRunAndNothingIsSent() {
    AtomicReference<String> token = new AtomicReference<>("Bearer header-secret-9999");
    source = McpToolSource.create(vertx, httpServer().header("Authorization", Secret.from(token::get)).build());
    Tool send = named(source.tools(vertx).await(), "send_message");

    token.set(null);
    assertThatThrownBy(() -> send.invoke(of(new JsonObject().put("text", "x"))).await())
        .isInstanceOf(ToolNotSentException.class)
        .hasMessageContaining("credentials are missing");
    assertThat(TestMcpServer.SENT.get()).isZero();
  }

  @Test
  void credentialsTheServerRefusesFailTheCallAsNotRunAndAreRedacted() throws Exception {
    jetty.stop();
    jetty = TestMcpServer.startHttp(port, false, "Bearer right-token-1234");
    AtomicReference<String> token = new AtomicReference<>("Bearer right-token-1234");
    source = McpToolSource.create(vertx, httpServer().header("Authorization", Secret.from(token::get)).build());
    Tool send = named(source.tools(vertx).await(), "send_message");
    assertThat(send.invoke(of(new JsonObject().put("text", "ok"))).await().outcome()).isEqualTo(Outcome.SUCCEEDED);

    token.set("Bearer rotated-wrong-5678");
    assertThatThrownBy(() -> send.invoke(of(new JsonObject().put("text", "x"))).await())
        .isInstanceOf(ToolNotSentException.class)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("rotated-wrong-5678").contains("refused the credentials"))
        // the same credentials would be refused again: the call is not retried
        .satisfies(e -> assertThat(((ToolNotSentException) e).worthRetrying()).isFalse());
    assertThat(TestMcpServer.SENT.get()).isEqualTo(1);
    assertThat(String.valueOf(source.health().lastError())).doesNotContain("rotated-wrong-5678");
  }

  @Test
  void headerValuesAreRedactedInConfigText() {
    McpServerConfig config = httpServer().header("Authorization", "Bearer header-secret-9999").build();
    assertThat(config.toString()).contains("Authorization=***").doesNotContain("header-secret-9999");
  }

  @Test
  void toolsTheServerAddsWhileRunningAreListedAfterItsListChangedNotification() throws Exception {
    source = McpToolSource.create(vertx, httpServer().build());
    java.util.concurrent.CompletableFuture<List<Tool>> changed = new java.util.concurrent.CompletableFuture<>();
    source.onToolsChanged(changed::complete);
    assertThat(source.tools(vertx).await()).extracting(Tool::name).doesNotContain("late_tool");

    TestMcpServer.addLateTool();
    List<Tool> after = changed.get(10, java.util.concurrent.TimeUnit.SECONDS);
    assertThat(after).extracting(Tool::name).contains("late_tool", "get_weather");
    assertThat(named(after, "late_tool").effectClass()).isEqualTo(EffectClass.READ);
  }
}
