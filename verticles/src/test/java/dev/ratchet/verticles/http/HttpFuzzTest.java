package dev.ratchet.verticles.http;

import dev.ratchet.runtime.testing.Await;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hostile input on the HTTP API: malformed JSON, wrong types, oversized and deeply nested bodies,
 * odd path parameters, unknown sessions and calls. Every request gets a 4xx JSON error (never a
 * 500 or a hang), the server keeps serving, and nothing already journaled changes.
 */
class HttpFuzzTest {

  @RegisterExtension
  static final ShopServer SHOP = new ShopServer();

  private static final String ALPHABET = "{}[]\":,0a\u00e9\\\u0000 tfn";
  static Http agent;
  static Http approver;

  @BeforeAll
  static void logIn() {
    agent = Http.bearer(SHOP.baseUrl(), ShopRuntime.AGENT_TOKEN);
    approver = Http.login(SHOP.baseUrl(), "ana", ShopRuntime.PASSWORD);
  }

  private static JsonObject journaled(String session) {
    JsonArray events = new JsonArray();
    for (JsonObject e : await(SHOP.runtime().ratchet.journal().events(session, null, 10_000))) {
      events.add(e.copy().put("id", "").put("at", 0));
    }
    JsonArray inbox = new JsonArray();
    await(SHOP.runtime().ratchet.pendingApprovals()).forEach(r -> inbox.add(r.toJson()));
    return new JsonObject().put("events", events).put("inbox", inbox);
  }

  private static List<String> bodies() {
    List<String> b = new ArrayList<>(List.of("", "{", "}", "null", "1", "\"x\"", "[]", "[1,2]", "{\"a\":}",
        "{\"agent\":5}", "{\"agent\":\"shop\",\"turn\":\"x\"}", "{\"agent\":\"shop\",\"turn\":{\"turnId\":1}}",
        "{\"agent\":\"shop\",\"turn\":{\"turnId\":\"t\",\"calls\":{}}}",
        "{\"agent\":\"shop\",\"turn\":{\"turnId\":\"t\",\"calls\":[5]}}",
        "{\"agent\":\"nobody\",\"turn\":{\"turnId\":\"t\",\"calls\":[]}}",
        "{\"argumentsHash\":[],\"approved\":\"yes\"}", "{\"approved\":true}", "{\"outcome\":\"maybe\"}",
        "{\"outcome\":\"succeeded\",\"note\":{}}", "\uD800", "{\"agent\":\"\u0000\"}",
        "{\"a\":".repeat(3_000) + "1" + "}".repeat(3_000), "x".repeat(200_000),
        new JsonObject().put("agent", "shop").put("turn", new JsonObject().put("turnId", "t")
            .put("calls", new JsonArray().add(new JsonObject().put("name", "look_up_order")
                .put("arguments", new JsonObject().put("id", "x".repeat(100_000)))))).encode()));
    Random random = new Random(11);
    for (int i = 0; i < 60; i++) {
      StringBuilder sb = new StringBuilder();
      int len = random.nextInt(200);
      for (int j = 0; j < len; j++) {
        sb.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
      }
      b.add(sb.toString());
    }
    return b;
  }

  private static List<String> paths() {
    String[] ids = {"known", "nobody", "%00", "%F0%9F%98%80", "a%7Bb%7D", "..%2F..", "x".repeat(300),
        URLEncoder.encode("ratchet:{known}:meta", StandardCharsets.UTF_8)};
    List<String> p = new ArrayList<>();
    for (String id : ids) {
      p.add("/api/sessions/" + id + "/turns");
      p.add("/api/approvals/" + id + "/call_nope");
      p.add("/api/approvals/known/" + id);
      p.add("/api/sessions/" + id + "/calls/" + id + "/reconcile");
    }
    return p;
  }

  @Test
  void everyHostileRequestGetsAClearClientErrorAndNothingJournaledChanges() {
    SHOP.runtime().ratchet.submit("shop", "known", dev.ratchet.runtime.Turn.of("waiting",
        new dev.ratchet.runtime.ToolCall("refund_order", new JsonObject().put("id", "A-1"))));
    Await.until(() -> !await(SHOP.runtime().ratchet.pendingApprovals()).isEmpty(), 10);
    JsonObject before = journaled("known");
    int requests = 0;
    for (String path : paths()) {
      for (String body : bodies()) {
        for (Http client : List.of(agent, approver)) {
          Http.Answer a = client.postRaw(path, body);
          requests++;
          assertThat(a.status()).as("%s %s", path, abbreviate(body)).isBetween(400, 499);
          assertThat(new JsonObject(a.body()).getString("code")).as("%s %s", path, abbreviate(body)).isNotBlank();
        }
      }
    }
    assertThat(requests).isGreaterThan(1000);
    assertThat(journaled("known")).isEqualTo(before);
    assertThat(Http.anonymous(SHOP.baseUrl()).get("/health").status()).isEqualTo(200);
    assertThat(agent.get("/api/approvals").status()).isIn(200, 403);
  }

  private static String abbreviate(String s) {
    return s.length() > 80 ? s.substring(0, 80) + "…(" + s.length() + " chars)" : s;
  }
}
