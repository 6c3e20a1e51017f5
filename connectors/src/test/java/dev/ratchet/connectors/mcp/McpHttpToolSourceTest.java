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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static dev.ratchet.runtime.testing.Await.TIMEOUT_SECONDS;
import static dev.ratchet.connectors.mcp.TestInvocations.named;
import static dev.ratchet.connectors.mcp.TestInvocations.of;
import static dev.ratchet.runtime.testing.Await.await;
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
      await(source.close());
    }
    jetty.stop();
    await(vertx.close());
  }

  private McpServerConfig.Builder httpServer() {
    return McpServerConfig.http("remote", "http://127.0.0.1:" + port + "/mcp")
        .requestTimeout(Duration.ofSeconds(5))
        .reconnectBackoff(Duration.ofMillis(100), Duration.ofMillis(300));
  }

  @Test
  void listsAndRunsToolsOverStreamableHttp() {
    source = McpToolSource.create(vertx, httpServer().build());
    List<Tool> tools = await(source.tools(vertx));

    assertThat(named(tools, "get_weather").effectClass()).isEqualTo(EffectClass.READ);
    assertThat(named(tools, "send_message").source()).isEqualTo("mcp:remote");

    ToolResult sent = await(named(tools, "send_message").invoke(of(new JsonObject().put("text", "hi"))));
    assertThat(sent.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(sent.value()).isEqualTo("sent #1");
    assertThat(TestMcpServer.SENT.get()).isEqualTo(1);
  }

  @Test
  void everyAttemptOfACallCarriesTheSameIdempotencyKeyInItsMeta() {
    source = McpToolSource.create(vertx, httpServer().build());
    Tool echo = named(await(source.tools(vertx)), "echo_meta");
    dev.ratchet.runtime.ToolInvocation first = of(new JsonObject());
    dev.ratchet.runtime.ToolInvocation retry = new dev.ratchet.runtime.ToolInvocation(first.sessionId(), first.callId(),
        first.idempotencyKey(), 2, first.arguments(), first.deadline());

    assertThat(await(echo.invoke(first)).value()).isEqualTo(first.idempotencyKey().value());
    assertThat(await(echo.invoke(retry)).value()).isEqualTo(first.idempotencyKey().value());
  }

  @Test
  void aServerThatGoesAwayFailsWritesAsNotRunAndIsReconnectedWhenItReturns() throws Exception {
    source = McpToolSource.create(vertx, httpServer().build());
    List<Tool> tools = await(source.tools(vertx));
    Tool send = named(tools, "send_message");

    jetty.stop();
    assertThatThrownBy(() -> send.invoke(of(new JsonObject().put("text", "lost?")))
        .await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
        .isInstanceOf(ToolNotSentException.class)
        .hasMessageStartingWith("the tool did not run, so it is safe to call again");
    assertThat(TestMcpServer.SENT.get()).isZero();
    assertThat(source.health().healthy()).isFalse();
    assertThat(source.health().lastError()).isNotBlank();

    // while it stays away, the last listed tools are still offered and keep failing as "did not run"
    assertThat(await(source.tools(vertx))).extracting(Tool::name).contains("send_message");
    assertThatThrownBy(() -> send.invoke(of(new JsonObject().put("text", "lost?")))
        .await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
        .isInstanceOf(ToolNotSentException.class);

    jetty = TestMcpServer.startHttp(port, false);
    long until = System.currentTimeMillis() + 10_000;
    while (!await(source.checkHealth()).healthy() && System.currentTimeMillis() < until) {
      Thread.sleep(50);
    }
    assertThat(source.health().status()).isEqualTo("healthy");
    ToolResult sent = await(send.invoke(of(new JsonObject().put("text", "back"))));
    assertThat(sent.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(TestMcpServer.SENT.get()).isEqualTo(1);
  }

  @Test
  void aServerThatGoesAwayQuietlyShowsUnhealthyWithoutAnyCall() throws Exception {
    source = McpToolSource.create(vertx, httpServer().healthCheckInterval(Duration.ofMillis(100)).build());
    await(source.connect());
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
    Tool before = named(await(source.tools(vertx)), "delete_all");
    assertThat(before.effectClass()).isEqualTo(EffectClass.NON_IDEMPOTENT_WRITE);

    jetty.stop();
    jetty = TestMcpServer.startHttp(port, true);
    long until = System.currentTimeMillis() + 10_000;
    while (!await(source.checkHealth()).healthy() && System.currentTimeMillis() < until) {
      Thread.sleep(50);
    }
    List<Tool> after = await(source.tools(vertx));
    Tool deleteAll = named(after, "delete_all");
    assertThat(deleteAll.effectClass()).isEqualTo(EffectClass.NON_IDEMPOTENT_WRITE);
    assertThat(deleteAll.approvalRule().reasonToAsk(new JsonObject())).isNotNull();
  }

  @Test
  void anUnpinnedToolFollowsTheServersAnnotations() throws Exception {
    jetty.stop();
    jetty = TestMcpServer.startHttp(port, true);
    source = McpToolSource.create(vertx, httpServer().build());
    assertThat(named(await(source.tools(vertx)), "delete_all").effectClass()).isEqualTo(EffectClass.READ);
  }

  @Test
  void aMissingHeaderSecretFailsTheCallAsNotRunAndNothingIsSent() {
    AtomicReference<String> token = new AtomicReference<>("Bearer header-secret-9999");
    source = McpToolSource.create(vertx, httpServer().header("Authorization", Secret.from(token::get)).build());
    Tool send = named(await(source.tools(vertx)), "send_message");

    token.set(null);
    assertThatThrownBy(() -> send.invoke(of(new JsonObject().put("text", "x")))
        .await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
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
    Tool send = named(await(source.tools(vertx)), "send_message");
    assertThat(await(send.invoke(of(new JsonObject().put("text", "ok")))).outcome()).isEqualTo(Outcome.SUCCEEDED);

    token.set("Bearer rotated-wrong-5678");
    assertThatThrownBy(() -> send.invoke(of(new JsonObject().put("text", "x")))
        .await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
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
    assertThat(await(source.tools(vertx))).extracting(Tool::name).doesNotContain("late_tool");

    TestMcpServer.addLateTool();
    List<Tool> after = changed.get(10, java.util.concurrent.TimeUnit.SECONDS);
    assertThat(after).extracting(Tool::name).contains("late_tool", "get_weather");
    assertThat(named(after, "late_tool").effectClass()).isEqualTo(EffectClass.READ);
  }
}
