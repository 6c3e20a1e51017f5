package dev.ratchet.server.demo;

import dev.ratchet.server.RunApi;
import dev.ratchet.server.RunChild;
import dev.ratchet.server.impl.TransportChoice;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

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

  private final RunChild run = new RunChild(TOKEN, PASSWORD);
  private final RunApi api = new RunApi(run);
  private final List<String> output = run.output();
  private final HttpClient http = HttpClient.newHttpClient();

  @AfterEach
  void stop() throws Exception {
    run.close();
  }

  private void start() throws Exception {
    RunChild.copyDemo(dir);
    run.start(dir, "Demo API token:", 120);
  }

  private String shopUrl() {
    String l = run.line("Demo shop service: ");
    return l.substring("Demo shop service: ".length()).split(" ")[0];
  }

  @Test
  void aUserMessageAndAnApprovalOverHttpCancelTheOrderOnceAtTheShop() throws Exception {
    start();
    assertThat(output).anyMatch(l -> l.equals("  Dashboard: http://localhost:" + run.httpPort() + "/"));
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

    HttpResponse<String> sent = api.post("/api/sessions/e2e-1/messages", new JsonObject().put("agent", "order-support")
        .put("text", "cancel order 1002"), Map.of("Authorization", "Bearer " + TOKEN));
    assertThat(sent.statusCode()).as(sent.body()).isEqualTo(202);

    String csrf = api.login();
    JsonObject approval = awaitApproval("e2e-1");
    assertThat(approval.getString("tool")).isEqualTo("shop_cancel_order");
    assertThat(shopStats().getInteger("cancelRequests")).isZero();
    api.approve(approval, csrf, "customer asked by phone");

    JsonObject answer = awaitFinal("e2e-1", 1);
    assertThat(answer.getString("status")).isEqualTo("answered");
    assertThat(answer.getString("text")).contains("Order 1002 is now cancelled");
    JsonObject stats = shopStats();
    assertThat(stats.getInteger("cancelRequests")).isEqualTo(1);
    assertThat(stats.getInteger("cancellations")).isEqualTo(1);
    assertThat(order(stats, "1002").getString("status")).isEqualTo("cancelled");

    // the session timeline shows the conversation next to the turn it ran
    JsonObject timeline = api.get("/api/sessions/e2e-1");
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
    start();
    HttpResponse<String> sent = api.post("/api/sessions/e2e-2/messages", new JsonObject().put("agent", "order-support")
        .put("text", "refund 250 on order 1003"), Map.of("Authorization", "Bearer " + TOKEN));
    assertThat(sent.statusCode()).as(sent.body()).isEqualTo(202);
    api.login();
    awaitApproval("e2e-2");

    // Ctrl-C, then start again on the same data
    assertThat(run.stop(60)).isTrue();
    start();
    String csrf = api.login();
    JsonObject approval = awaitApproval("e2e-2");
    assertThat(approval.getString("tool")).isEqualTo("shop_refund_order");
    assertThat(approval.getString("askedBecause")).isEqualTo("approval required by agent file: body.amount > 100");
    api.approve(approval, csrf, "damaged on arrival");

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
    start();
    String shop = shopUrl();
    assertThat(shop).isEqualTo("http://127.0.0.1:" + run.shopPort());
    HttpResponse<String> sent = api.post("/api/sessions/e2e-3/messages", new JsonObject().put("agent", "order-support")
        .put("text", "cancel order 1002"), Map.of("Authorization", "Bearer " + TOKEN));
    assertThat(sent.statusCode()).as(sent.body()).isEqualTo(202);
    String csrf = api.login();
    JsonObject approval = awaitApproval("e2e-3");
    api.approve(approval, csrf, "customer asked");
    // the shop counts a cancel before it saves it, and answers once it is saved: wait for the save
    Path state = dir.resolve("data").resolve("demo-shop.json");
    run.until(() -> {
      try {
        return shopStats().getInteger("cancellations") == 1 && Files.exists(state)
            && new JsonObject(Files.readString(state)).getInteger("cancellations") == 1;
      } catch (Exception e) {
        return false;
      }
    }, 30);

    // kill -9: no shutdown hook runs, the shop's state is what it saved before it answered
    assertThat(run.kill(60)).isTrue();
    start();
    assertThat(shopUrl()).isEqualTo(shop);
    api.login();
    awaitFinal("e2e-3", 1);
    JsonObject stats = shopStats();
    assertThat(stats.getInteger("cancelRequests")).isEqualTo(1);
    assertThat(stats.getInteger("cancellations")).isEqualTo(1);
    assertThat(order(stats, "1002").getString("status")).isEqualTo("cancelled");
    assertThat(dir.resolve("data").resolve("demo-shop.json")).exists();
  }

  private JsonObject awaitApproval(String session) {
    return api.awaitApproval(session, 30);
  }

  private JsonObject awaitFinal(String session, int count) {
    JsonObject[] found = new JsonObject[1];
    run.until(() -> {
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
    return api.get("/api/sessions/" + session + "/messages").getJsonArray("messages");
  }

  private static JsonObject order(JsonObject stats, String id) {
    return stats.getJsonArray("orders").stream().map(o -> (JsonObject) o)
        .filter(o -> id.equals(o.getString("orderId"))).findFirst().orElseThrow();
  }

  private JsonObject shopStats() throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(shopUrl() + "/stats")).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    return new JsonObject(r.body());
  }
}
