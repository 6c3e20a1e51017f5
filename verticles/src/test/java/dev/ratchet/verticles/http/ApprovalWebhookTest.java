package dev.ratchet.verticles.http;

import dev.ratchet.connectors.Connection;
import dev.ratchet.connectors.Connections;
import dev.ratchet.runtime.Secret;
import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.verticles.NotificationOptions;
import dev.ratchet.verticles.NotificationsVerticle;
import dev.ratchet.verticles.impl.WebhookDelivery;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/** A webhook on approval requested: received by a local server, signed, retried, with a deep link and no arguments. */
class ApprovalWebhookTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  static final String SECRET = "whsec-0123456789abcdef";

  static ShopRuntime shop;
  static HttpServer receiver;
  /** Every delivery received: headers and body. */
  static final List<Map<String, String>> received = new CopyOnWriteArrayList<>();
  static final AtomicInteger answered = new AtomicInteger();
  /** What a local server speaking Slack's Web API received: the token and each chat.postMessage body. */
  static final List<String> slackTokens = new CopyOnWriteArrayList<>();
  static final List<JsonObject> slackPosts = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() {
    shop = new ShopRuntime(REDIS);
    HttpApiTest.base = shop.baseUrl();
    // a receiver that fails the first delivery, as a receiver being redeployed would
    receiver = await(shop.vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(body -> {
      received.add(Map.of("signature", String.valueOf(req.getHeader("X-Ratchet-Signature")),
          "timestamp", String.valueOf(req.getHeader("X-Ratchet-Timestamp")),
          "delivery", String.valueOf(req.getHeader("X-Ratchet-Delivery")), "body", body.toString()));
      req.response().setStatusCode(answered.getAndIncrement() == 0 ? 503 : 204).end();
    })).listen(0, "127.0.0.1"));
    HttpServer slack = await(shop.vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(body -> {
      slackTokens.add(String.valueOf(req.getHeader("Authorization")));
      if (req.path().endsWith("/chat.postMessage")) {
        JsonObject post = body.toJsonObject();
        slackPosts.add(post);
        req.response().putHeader("Content-Type", "application/json").end(new JsonObject().put("ok", true)
            .put("channel", post.getString("channel")).put("ts", "1764535000.000100")
            .put("message", new JsonObject().put("text", post.getString("text")).put("ts", "1764535000.000100")).encode());
      } else {
        req.response().putHeader("Content-Type", "application/json").end(new JsonObject().put("ok", true)
            .put("messages", new io.vertx.core.json.JsonArray()).encode());
      }
    })).listen(0, "127.0.0.1"));
    Connections connections = Connections.of(Connection.of("oncall-slack", "slack",
        new JsonObject().put("baseUrl", "http://127.0.0.1:" + slack.actualPort() + "/api"),
        Map.of("botToken", Secret.of("xoxb-test-token-123"))));
    await(shop.vertx.deployVerticle(new NotificationsVerticle(NotificationOptions.create()
        .webhook("http://127.0.0.1:" + receiver.actualPort() + "/hooks/ratchet", SECRET)
        .slack("oncall-slack", "C0ONCALL")
        .dashboardUrl("https://ratchet.example.test/").retryMillis(100), connections)));
  }

  @AfterAll
  static void stop() {
    if (shop != null) {
      shop.close();
    }
  }

  @Test
  void anApprovalRequestIsPostedSignedAndRetriedWithALinkToItsCardAndWithoutItsArguments() throws Exception {
    String s = "hook-" + UUID.randomUUID().toString().substring(0, 8);
    Http.Answer a = HttpApiTest.agent().post("/api/sessions/" + s + "/turns", HttpApiTest.turn("t1",
        HttpApiTest.call("refund_order", new JsonObject().put("order", "ORDER-SECRET-77"))));
    assertThat(a.status()).as(a.body()).isIn(200, 202);
    JsonObject pending = HttpApiTest.awaitPending(Http.login(shop.baseUrl(), "ana", ShopRuntime.PASSWORD), s);

    long deadline = System.currentTimeMillis() + 15_000;
    while (received.size() < 2 && System.currentTimeMillis() < deadline) {
      Thread.sleep(50);
    }
    assertThat(received).as("the failed first delivery is retried").hasSize(2);
    assertThat(received.get(1).get("delivery")).isEqualTo(received.get(0).get("delivery"));
    for (Map<String, String> r : received) {
      assertThat(r.get("signature")).isEqualTo("sha256=" + WebhookDelivery.sign(SECRET, r.get("timestamp") + "." + r.get("body")));
      assertThat(r.get("signature")).isNotEqualTo("sha256=" + WebhookDelivery.sign("another secret entirely",
          r.get("timestamp") + "." + r.get("body")));
    }
    JsonObject payload = new JsonObject(received.get(1).get("body"));
    assertThat(payload.getString("type")).isEqualTo("approval.requested");
    assertThat(payload.getString("sessionId")).isEqualTo(s);
    assertThat(payload.getString("tool")).isEqualTo("refund_order");
    assertThat(payload.getString("link")).isEqualTo("https://ratchet.example.test/#/inbox/" + s + "/"
        + pending.getString("callId"));
    assertThat(received.get(1).get("body")).doesNotContain("ORDER-SECRET-77").doesNotContain(SECRET);

    // the same notice in Slack, through the Slack connector, with the link to the card
    deadline = System.currentTimeMillis() + 15_000;
    while (slackPosts.stream().noneMatch(p -> p.getString("text", "").contains(s))
        && System.currentTimeMillis() < deadline) {
      Thread.sleep(50);
    }
    JsonObject post = slackPosts.stream().filter(p -> p.getString("text", "").contains(s)).findFirst().orElseThrow();
    assertThat(post.getString("channel")).isEqualTo("C0ONCALL");
    assertThat(post.getString("text")).contains(payload.getString("link")).contains("refund_order")
        .doesNotContain("ORDER-SECRET-77");
    assertThat(slackTokens).contains("Bearer xoxb-test-token-123");
  }

  @Test
  void aWebhookWithoutAUsableUrlOrSecretIsRefusedAtConfiguration() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> NotificationOptions.fromConfig(new JsonObject()
            .put("webhooks", new io.vertx.core.json.JsonArray().add(new JsonObject().put("url", "ftp://x").put("secret", SECRET)))))
        .hasMessageContaining("not an http(s) URL");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> NotificationOptions.fromConfig(new JsonObject()
            .put("webhooks", new io.vertx.core.json.JsonArray().add(new JsonObject().put("url", "http://h/x").put("secret", "short")))))
        .hasMessageContaining("at least 16 characters").hasMessageNotContaining("short");
  }
}
