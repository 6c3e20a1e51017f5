package dev.ratchet.server.config;

import dev.ratchet.connectors.provider.composio.FakeComposio;
import dev.ratchet.server.RunApi;
import dev.ratchet.server.RunChild;
import dev.ratchet.server.RunChildFixture;
import dev.ratchet.server.bench.OrdersProvider;
import dev.ratchet.verticles.http.Browser;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ratchet run} in a child process serving an OpenAPI agent and a Composio agent declared in
 * files, driven as a user drives it: turns sent with curl and an agent token, writes approved by a
 * person in the dashboard in a real browser, and the OpenAPI agent's file changed while its write
 * waits for that approval. The waiting write runs once, with the definitions it was validated
 * against; the next turn gets the new ones; every effect lands once at its provider.
 */
class AgentFilesBrowserReloadTest extends RunChildFixture {

  private static final String TOKEN = "rt_browser-reload-token-0123";
  private static final String PASSWORD = "browser-reload-password";

  private final List<String> output = run.output();

  AgentFilesBrowserReloadTest() {
    super(TOKEN, PASSWORD);
  }

  @Test
  void writesApprovedInTheBrowserRunOnceWhileAReloadChangesTheAgentUnderThem() throws Exception {
    Browser.assumeInstalled();
    OrdersProvider orders = new OrdersProvider().start(vertx);
    FakeComposio composio = new FakeComposio();
    composio.account("ca_demo_github", "demo-agent", "github", "ACTIVE");
    int composioPort = composio.start(vertx);
    Path agents = dir.resolve("agents");
    OrdersProvider.writeAgent(dir, agents, "always");
    Files.writeString(agents.resolve("github.yaml"), """
        agent: github
        tools:
          - composio: { connection: composio, toolkits: [github], allow: [GITHUB_CREATE_ISSUE, "GITHUB_GET_*"] }
            pin: { GITHUB_CREATE_ISSUE: { approval: always } }
        """);
    Map<String, String> connections = new HashMap<>(orders.connection());
    connections.putAll(Map.of("RATCHET_CONNECTION_COMPOSIO_CONNECTOR", "composio",
        "RATCHET_CONNECTION_COMPOSIO_CONFIG_BASE_URL", "http://127.0.0.1:" + composioPort,
        "RATCHET_CONNECTION_COMPOSIO_CREDENTIAL_API_KEY", FakeComposio.KEY));
    start(agents, connections);

    // the provider connection is served for browsing and connecting, and answers
    JsonObject provider = curl("GET", "/api/providers", null).getJsonArray("providers").getJsonObject(0);
    assertThat(provider.getString("name")).isEqualTo("composio");
    assertThat(provider.getJsonObject("health").getBoolean("healthy")).isTrue();
    assertThat(curl("GET", "/api/providers/composio/tools?toolkit=gmail", null).getJsonArray("items").stream()
        .map(i -> ((JsonObject) i).getString("slug"))).contains("GMAIL_SEND_EMAIL");

    // both writes wait for a person
    submit("o-1", "orders", "t1", "orders_cancel_order", new JsonObject().put("orderId", "1001"));
    submit("g-1", "github", "t1", "GITHUB_CREATE_ISSUE", new JsonObject().put("title", "Refund stuck"));
    until(() -> events("o-1").stream().anyMatch(e -> "approval.requested".equals(e.getString("type")))
        && events("g-1").stream().anyMatch(e -> "approval.requested".equals(e.getString("type"))), 60);

    // the orders agent's file changes while its cancel waits: cancels no longer ask
    String before = catalogueOf("o-1", "t1");
    OrdersProvider.writeAgent(dir, agents, "never");
    until(() -> "never".equals(cancelTool().getString("approval")), 60);

    try (Browser browser = Browser.open(base())) {
      browser.login("admin", PASSWORD);
      approveInBrowser(browser, "o-1");
      approveInBrowser(browser, "g-1");
    }
    assertThat(outcome("o-1", "t1")).isEqualTo("succeeded");
    assertThat(outcome("g-1", "t1")).isEqualTo("succeeded");

    // a new turn is validated against the new definitions and runs without asking
    submit("o-1", "orders", "t2", "orders_cancel_order", new JsonObject().put("orderId", "1002"));
    assertThat(outcome("o-1", "t2")).isEqualTo("succeeded");
    assertThat(catalogueOf("o-1", "t1")).isEqualTo(before);
    assertThat(catalogueOf("o-1", "t2")).isNotEqualTo(before);

    assertThat(orders.cancels("1001")).isEqualTo(1);
    assertThat(orders.cancels("1002")).isEqualTo(1);
    assertThat(composio.executions).hasSize(1);
    assertThat(composio.executions.get(0).getString("slug")).isEqualTo("GITHUB_CREATE_ISSUE");
    assertThat(composio.executions.get(0).getString("user_id")).isEqualTo("demo-agent");
    assertThat(String.join("\n", output)).doesNotContain(FakeComposio.KEY);
  }

  private void approveInBrowser(Browser browser, String session) {
    browser.driver.get(base() + "/");
    WebElement card = browser.approvalCard(session);
    card.findElement(By.cssSelector("input.reason")).sendKeys("checked with the customer");
    card.findElement(By.cssSelector("button.approve")).click();
    try {
      browser.waitFor(ExpectedConditions.attributeToBe(card, "data-outcome", "succeeded"));
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "\nratchet run said:\n" + String.join("\n", output), e);
    }
  }

  private JsonObject cancelTool() {
    for (Object a : curl("GET", "/api/agents", null).getJsonArray("agents")) {
      JsonObject agent = (JsonObject) a;
      if ("orders".equals(agent.getString("name"))) {
        for (Object t : agent.getJsonArray("catalogue")) {
          if ("orders_cancel_order".equals(((JsonObject) t).getString("name"))) {
            return (JsonObject) t;
          }
        }
      }
    }
    throw new AssertionError("no orders_cancel_order in /api/agents");
  }

  private void submit(String session, String agent, String turnId, String tool, JsonObject arguments) {
    JsonObject body = new JsonObject().put("agent", agent).put("turn", new JsonObject().put("turnId", turnId)
        .put("calls", new JsonArray().add(new JsonObject().put("name", tool).put("arguments", arguments))));
    curl("POST", "/api/sessions/" + session + "/turns", body);
  }

  private String outcome(String session, String turnId) {
    String[] found = new String[1];
    until(() -> (found[0] = RunApi.firstOutcome(curl("GET", "/api/sessions/" + session + "/turns/" + turnId
        + "?wait=5", null))) != null, 60);
    return found[0];
  }

  /** The catalogue version the turn's {@code turn.submitted} event records, once the stream has shown it. */
  private String catalogueOf(String session, String turnId) {
    String[] found = new String[1];
    until(() -> {
      events(session).stream().filter(e -> "turn.submitted".equals(e.getString("type"))
          && turnId.equals(e.getString("turn"))).findFirst()
          .ifPresent(e -> found[0] = e.getJsonObject("data").getString("catalogue"));
      return found[0] != null;
    }, 30);
    return found[0];
  }

  /** The session's events so far, read from its event stream with curl for a second (callers retry). */
  private List<JsonObject> events(String session) {
    List<JsonObject> events = new ArrayList<>();
    for (String line : run(List.of("curl", "-sN", "--max-time", "1", "-H", "Authorization: Bearer " + TOKEN,
        base() + "/api/sessions/" + session + "/events")).split("\n")) {
      if (line.startsWith("data: ")) {
        events.add(new JsonObject(line.substring(6)));
      }
    }
    return events;
  }

  /** One request with curl and the agent token, as the docs show it; the answer must be a 2xx JSON object. */
  private JsonObject curl(String method, String path, JsonObject body) {
    List<String> command = new ArrayList<>(List.of("curl", "-s", "-X", method, "-w", "\n%{http_code}",
        "-H", "Authorization: Bearer " + TOKEN));
    if (body != null) {
      command.addAll(List.of("-H", "Content-Type: application/json", "--data-binary", body.encode()));
    }
    command.add(base() + path);
    String text = run(command);
    int split = text.lastIndexOf('\n');
    int status = Integer.parseInt(text.substring(split + 1).trim());
    assertThat(status).as(method + " " + path + ": " + text).isBetween(200, 299);
    return new JsonObject(text.substring(0, split));
  }

  private static String run(List<String> command) {
    try {
      Process p = new ProcessBuilder(command).start();
      String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      p.waitFor(30, TimeUnit.SECONDS);
      return text;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private void start(Path agents, Map<String, String> connections) throws Exception {
    run.env(connections).env(Map.of("RATCHET_AGENTS_DIR", agents.toString())).start(dir, RunChild.RUNNING, 180);
  }

  private String base() {
    return run.baseUrl();
  }

  private void until(Supplier<Boolean> condition, int seconds) {
    run.until(condition, seconds);
  }
}
