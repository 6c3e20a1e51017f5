package dev.ratchet.server.demo;

import dev.ratchet.server.ChildOutput;
import dev.ratchet.server.Main;
import dev.ratchet.server.impl.TransportChoice;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.CookieManager;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo as a user runs it: {@code Main run} in its own JVM with an embedded Redis, the user's
 * message and the approval over HTTP, and the shop service counting what it was asked to do.
 */
class DemoEndToEndTest {

  private static final String TOKEN = "rt_e2e-demo-token-0123456789";
  private static final String PASSWORD = "demo-password-e2e";

  @TempDir
  Path dir;

  private final HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager())
      .connectTimeout(Duration.ofSeconds(5)).build();
  private Process child;
  private final List<String> output = new CopyOnWriteArrayList<>();
  private int httpPort;
  private int redisPort;
  private int shopPort;

  @AfterEach
  void stop() throws Exception {
    if (child != null && child.isAlive()) {
      child.destroy();
      if (!child.waitFor(30, TimeUnit.SECONDS)) {
        child.destroyForcibly();
      }
    }
  }

  private void start() throws Exception {
    output.clear();
    // the demo as shipped: its agent file and the shop's OpenAPI document, where run looks for them
    Path root = Path.of(System.getProperty("user.dir")).getParent();
    for (String file : List.of("conf/agents/demo.yaml", "conf/specs/shop.json")) {
      Files.createDirectories(dir.resolve(file).getParent());
      Files.copy(root.resolve(file), dir.resolve(file), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-Xmx384m", "-cp", System.getProperty("java.class.path"),
        Main.class.getName(), "run").directory(dir.toFile()).redirectErrorStream(true);
    Map<String, String> env = pb.environment();
    List.of("RATCHET_MODEL", "RATCHET_MODEL_BASE_URL", "OPENAI_API_KEY", "RATCHET_REDIS_URL", "RATCHET_NODE_ID")
        .forEach(env::remove);
    env.entrySet().removeIf(e -> e.getKey().startsWith("RATCHET_CONNECTION_"));
    env.put("RATCHET_DATA_DIR", dir.resolve("data").toString());
    env.put("RATCHET_HTTP_PORT", String.valueOf(httpPort));
    env.put("RATCHET_REDIS_PORT", String.valueOf(redisPort));
    env.put("RATCHET_SHOP_PORT", String.valueOf(shopPort));
    env.put("RATCHET_CONNECTIONS_FILE", dir.resolve("no-connections.json").toString());
    env.put("RATCHET_ADMIN_PASSWORD", PASSWORD);
    env.put("RATCHET_DEMO_TOKEN", TOKEN);
    child = pb.start();
    ChildOutput.collect(child, output, "demo-stdout");
    until(() -> line("Demo API token:") != null, 120);
  }

  private String line(String prefix) {
    if (child != null && !child.isAlive() && output.stream().noneMatch(l -> l.startsWith(prefix))) {
      throw new AssertionError("the demo exited with " + child.exitValue() + ": " + output);
    }
    return output.stream().filter(l -> l.startsWith(prefix)).findFirst().orElse(null);
  }

  private String shopUrl() {
    String l = line("Demo shop service: ");
    return l.substring("Demo shop service: ".length()).split(" ")[0];
  }

  private String base() {
    return "http://127.0.0.1:" + httpPort;
  }

  @Test
  void aUserMessageAndAnApprovalOverHttpCancelTheOrderOnceAtTheShop() throws Exception {
    httpPort = freePort();
    redisPort = freePort();
    shopPort = freePort();
    start();
    assertThat(output).anyMatch(l -> l.equals("  Dashboard: http://localhost:" + httpPort + "/"));
    assertThat(output).anyMatch(l -> l.contains("cancel order 1002"));
    if (!System.getProperty("os.name").toLowerCase().startsWith("windows")) {
      assertThat(output).anyMatch(l -> l.startsWith("Started embedded Redis")
          && l.contains(", journal over its socket " + dir.resolve("data")));
      assertThat(output).anyMatch(l -> l.contains("journal at unix://" + dir.resolve("data")));
    }
    if (TransportChoice.of(TransportChoice.NATIVE).isNative()) {
      assertThat(output).contains("  Network transport: Linux epoll (Netty's native transport)");
    }
    if (Files.isExecutable(Path.of("/usr/bin/chrt")) && Files.isDirectory(Path.of("/proc/self/task"))) {
      assertThat(output).anyMatch(l -> l.startsWith("Started embedded Redis")
          && l.endsWith(", its AOF rewrites at idle CPU priority"));
    }

    HttpResponse<String> sent = post("/api/sessions/e2e-1/messages", new JsonObject().put("agent", "order-support")
        .put("text", "cancel order 1002"), Map.of("Authorization", "Bearer " + TOKEN));
    assertThat(sent.statusCode()).as(sent.body()).isEqualTo(202);

    String csrf = login();
    JsonObject approval = awaitApproval("e2e-1");
    assertThat(approval.getString("tool")).isEqualTo("shop_cancel_order");
    assertThat(shopStats().getInteger("cancelRequests")).isZero();
    HttpResponse<String> decided = post("/api/approvals/e2e-1/" + approval.getString("callId"),
        new JsonObject().put("argumentsHash", approval.getString("argumentsHash")).put("approved", true)
            .put("reason", "customer asked by phone"), Map.of("X-CSRF-Token", csrf));
    assertThat(decided.statusCode()).as(decided.body()).isEqualTo(200);

    JsonObject answer = awaitFinal("e2e-1", 1);
    assertThat(answer.getString("status")).isEqualTo("answered");
    assertThat(answer.getString("text")).contains("Order 1002 is now cancelled");
    JsonObject stats = shopStats();
    assertThat(stats.getInteger("cancelRequests")).isEqualTo(1);
    assertThat(stats.getInteger("cancellations")).isEqualTo(1);
    assertThat(order(stats, "1002").getString("status")).isEqualTo("cancelled");

    // the session timeline shows the conversation next to the turn it ran
    JsonObject timeline = get("/api/sessions/e2e-1");
    assertThat(timeline.getJsonArray("messages").stream().map(m -> ((JsonObject) m).getString("kind")).toList())
        .containsExactly("user", "model", "model", "answer");
    assertThat(timeline.getJsonArray("turns").getJsonObject(0).getString("turnId")).isEqualTo("agent-step-1");
    JsonArray messages = conversation("e2e-1");
    assertThat(messages.stream().map(m -> ((JsonObject) m).getString("role")).toList())
        .containsExactly("user", "assistant", "assistant", "assistant");
    JsonObject withTools = messages.getJsonObject(1);
    assertThat(withTools.getJsonArray("results").getJsonObject(1).getJsonObject("approval").getString("approver"))
        .isEqualTo("admin");
  }

  @Test
  void stoppedWhileAWriteWaitsForApprovalTheDemoResumesAfterARestartAndAnswers() throws Exception {
    httpPort = freePort();
    redisPort = freePort();
    shopPort = freePort();
    start();
    HttpResponse<String> sent = post("/api/sessions/e2e-2/messages", new JsonObject().put("agent", "order-support")
        .put("text", "refund 250 on order 1003"), Map.of("Authorization", "Bearer " + TOKEN));
    assertThat(sent.statusCode()).as(sent.body()).isEqualTo(202);
    login();
    awaitApproval("e2e-2");

    // Ctrl-C, then start again on the same data
    child.destroy();
    assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    start();
    String csrf = login();
    JsonObject approval = awaitApproval("e2e-2");
    assertThat(approval.getString("tool")).isEqualTo("shop_refund_order");
    assertThat(approval.getString("askedBecause")).isEqualTo("approval required by agent file: body.amount > 100");
    HttpResponse<String> decided = post("/api/approvals/e2e-2/" + approval.getString("callId"),
        new JsonObject().put("argumentsHash", approval.getString("argumentsHash")).put("approved", true)
            .put("reason", "damaged on arrival"), Map.of("X-CSRF-Token", csrf));
    assertThat(decided.statusCode()).as(decided.body()).isEqualTo(200);

    JsonObject answer = awaitFinal("e2e-2", 1);
    assertThat(answer.getString("text")).contains("Refunded 250.0 on order 1003");
    assertThat(shopStats().getInteger("refunds")).isEqualTo(1);
    // the model response of before the restart was not asked again: one response with the tool call
    long responses = conversation("e2e-2").stream()
        .filter(m -> "model_response".equals(((JsonObject) m).getString("kind"))).count();
    assertThat(responses).isEqualTo(2);
  }

  @Test
  void aWriteApprovedBeforeAKillNineShowsOnceInTheShopsStatsOnTheSameAddressAfterTheRestart() throws Exception {
    httpPort = freePort();
    redisPort = freePort();
    shopPort = freePort();
    start();
    String shop = shopUrl();
    assertThat(shop).isEqualTo("http://127.0.0.1:" + shopPort);
    HttpResponse<String> sent = post("/api/sessions/e2e-3/messages", new JsonObject().put("agent", "order-support")
        .put("text", "cancel order 1002"), Map.of("Authorization", "Bearer " + TOKEN));
    assertThat(sent.statusCode()).as(sent.body()).isEqualTo(202);
    String csrf = login();
    JsonObject approval = awaitApproval("e2e-3");
    HttpResponse<String> decided = post("/api/approvals/e2e-3/" + approval.getString("callId"),
        new JsonObject().put("argumentsHash", approval.getString("argumentsHash")).put("approved", true)
            .put("reason", "customer asked"), Map.of("X-CSRF-Token", csrf));
    assertThat(decided.statusCode()).as(decided.body()).isEqualTo(200);
    until(() -> {
      try {
        return shopStats().getInteger("cancellations") == 1;
      } catch (Exception e) {
        return false;
      }
    }, 30);

    // kill -9: no shutdown hook runs, the shop's state is what it saved before it answered
    child.destroyForcibly();
    assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    start();
    assertThat(shopUrl()).isEqualTo(shop);
    login();
    awaitFinal("e2e-3", 1);
    JsonObject stats = shopStats();
    assertThat(stats.getInteger("cancelRequests")).isEqualTo(1);
    assertThat(stats.getInteger("cancellations")).isEqualTo(1);
    assertThat(order(stats, "1002").getString("status")).isEqualTo("cancelled");
    assertThat(dir.resolve("data").resolve("demo-shop.json")).exists();
  }

  private JsonObject awaitApproval(String session) {
    JsonObject[] found = new JsonObject[1];
    until(() -> {
      JsonArray list = get("/api/approvals").getJsonArray("approvals");
      for (Object o : list) {
        if (session.equals(((JsonObject) o).getString("sessionId"))) {
          found[0] = (JsonObject) o;
          return true;
        }
      }
      return false;
    }, 30);
    return found[0];
  }

  private JsonObject awaitFinal(String session, int count) {
    JsonObject[] found = new JsonObject[1];
    until(() -> {
      List<JsonObject> finals = conversation(session).stream().map(m -> (JsonObject) m)
          .filter(m -> "final".equals(m.getString("kind"))).toList();
      if (finals.size() >= count) {
        found[0] = finals.get(count - 1);
        return true;
      }
      return false;
    }, 30);
    return found[0];
  }

  private JsonArray conversation(String session) {
    return get("/api/sessions/" + session + "/messages").getJsonArray("messages");
  }

  private static JsonObject order(JsonObject stats, String id) {
    return stats.getJsonArray("orders").stream().map(o -> (JsonObject) o)
        .filter(o -> id.equals(o.getString("orderId"))).findFirst().orElseThrow();
  }

  private String login() throws Exception {
    HttpResponse<String> r = post("/login", new JsonObject().put("name", "admin").put("password", PASSWORD), Map.of());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return new JsonObject(r.body()).getString("csrfToken");
  }

  private JsonObject shopStats() throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(shopUrl() + "/stats")).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    return new JsonObject(r.body());
  }

  private JsonObject get(String path) {
    try {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base() + path))
          .header("Authorization", "Bearer " + TOKEN).GET().build(), HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        // approvals need a person's login: the cookie from login() is sent without the token then
        r = http.send(HttpRequest.newBuilder(URI.create(base() + path)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
      }
      assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
      return new JsonObject(r.body());
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  private HttpResponse<String> post(String path, JsonObject body, Map<String, String> headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base() + path)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body.encode()));
    headers.forEach(b::header);
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private void until(Supplier<Boolean> condition, int seconds) {
    long deadline = System.currentTimeMillis() + seconds * 1000L;
    while (true) {
      if (child != null && !child.isAlive()) {
        throw new AssertionError("the demo exited with " + child.exitValue() + ": " + output);
      }
      try {
        if (condition.get()) {
          return;
        }
      } catch (AssertionError | RuntimeException e) {
        if (System.currentTimeMillis() > deadline) {
          throw e;
        }
      }
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("condition not met within " + seconds + " s");
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
