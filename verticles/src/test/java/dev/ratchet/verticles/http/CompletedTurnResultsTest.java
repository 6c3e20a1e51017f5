package dev.ratchet.verticles.http;

import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.verticles.impl.RatchetNodeImpl;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A completed turn's event in the journal's stream carries each call's result size, not the result;
 * over HTTP a completed turn still shows every call's result.
 */
class CompletedTurnResultsTest {

  @RegisterExtension
  static final ShopServer SHOP = new ShopServer();

  static String session() {
    return "s-" + UUID.randomUUID().toString().substring(0, 8);
  }

  static JsonObject order(String id) {
    return new JsonObject().put("order", id).put("status", "shipped");
  }

  @Test
  void theStreamCarriesEachCallsOutcomeWhileTheTimelineEventsAndTurnResultsShowTheResult() throws Exception {
    String s = session();
    Http agent = Http.bearer(SHOP.baseUrl(), ShopRuntime.AGENT_TOKEN);
    agent.post("/api/sessions/" + s + "/turns", new JsonObject().put("agent", "shop").put("turn", new JsonObject()
        .put("turnId", "t1").put("calls", List.of(
            new JsonObject().put("name", "look_up_order").put("arguments", new JsonObject().put("id", "A-7")),
            new JsonObject().put("name", "look_up_order").put("arguments", new JsonObject().put("id", "A-8"))))));
    Http.Answer done = agent.get("/api/sessions/" + s + "/turns/t1?wait=20");
    assertThat(done.status()).as(done.body()).isEqualTo(200);
    assertThat(done.json().getJsonObject("results").getJsonArray("results").getJsonObject(1).getJsonObject("result"))
        .isEqualTo(order("A-8"));

    JsonObject stored = await(SHOP.runtime().ratchet.journal().events(s, null, 100)).stream()
        .filter(e -> "turn.completed".equals(e.getString("type"))).findFirst().orElseThrow().getJsonObject("data");
    assertThat(stored.containsKey("results")).isFalse();
    assertThat(stored.getJsonArray("outcomes").getList()).containsExactly("succeeded", "succeeded");

    Http vic = Http.login(SHOP.baseUrl(), "vic", ShopRuntime.PASSWORD);
    JsonObject turn = vic.get("/api/sessions/" + s).json().getJsonArray("turns").getJsonObject(0);
    assertThat(turn.getString("status")).isEqualTo("completed");
    assertThat(turn.getJsonArray("calls").getJsonObject(0).getJsonObject("result")).isEqualTo(order("A-7"));
    assertThat(turn.getJsonArray("calls").getJsonObject(1).getJsonObject("result")).isEqualTo(order("A-8"));

    JsonObject streamed = streamedTurnCompleted(s);
    assertThat(streamed.getJsonObject("data")).isEqualTo(done.json().getJsonObject("results"));
  }

  /** The session's first {@code turn.completed} event as the server-sent event stream gives it. */
  private static JsonObject streamedTurnCompleted(String sessionId) throws Exception {
    Http agent = Http.bearer(SHOP.baseUrl(), ShopRuntime.AGENT_TOKEN);
    HttpRequest req = HttpRequest.newBuilder(URI.create(SHOP.baseUrl() + "/api/sessions/" + sessionId + "/events"))
        .header("Authorization", "Bearer " + ShopRuntime.AGENT_TOKEN).timeout(Duration.ofSeconds(30)).GET().build();
    HttpResponse<InputStream> r = agent.client().send(req, HttpResponse.BodyHandlers.ofInputStream());
    try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.equals("event: turn.completed")) {
          String data = in.readLine();
          assertThat(data).startsWith("data: ");
          return new JsonObject(data.substring("data: ".length()));
        }
      }
    }
    throw new AssertionError("the event stream ended before turn.completed");
  }
}
