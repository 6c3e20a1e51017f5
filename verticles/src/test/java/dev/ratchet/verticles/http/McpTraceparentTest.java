package dev.ratchet.verticles.http;

import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A W3C {@code traceparent} on the MCP endpoint is journaled with the turn it starts, for a call
 * that is its own turn and for the calls of one model response gathered into one turn
 * ({@code dev.ratchet/turn}): the gathered turn takes the one of its lowest-index call that
 * carries one, whatever order the calls arrive in (docs/OBSERVABILITY.md).
 */
class McpTraceparentTest {

  private static final String FIRST = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  private static final String SECOND = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  static ShopRuntime shop;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeAll
  static void start() {
    shop = new ShopRuntime(REDIS);
  }

  @AfterAll
  static void stop() {
    shop.close();
  }

  @Test
  void aCallThatIsItsOwnTurnKeepsItsTraceparentHeader() throws Exception {
    JsonObject answer = call("mcp-trace-1", FIRST, "look_up_order", new JsonObject());
    String turnId = answer.getJsonObject("result").getJsonObject("_meta").getString("dev.ratchet/turn");

    assertThat(await(shop.ratchet.journal().submittedTurn("mcp-trace-1", turnId)).traceparent()).isEqualTo(FIRST);
  }

  @Test
  void aGatheredTurnTakesTheTraceparentOfItsLowestIndexCallThatCarriesOneWhateverTheOrderOfArrival()
      throws Exception {
    // index 1 arrives first, with a traceparent in its _meta as MCP clients send it
    CompletableFuture<JsonObject> later = CompletableFuture.supplyAsync(() -> callUnchecked("mcp-trace-2", null,
        "look_up_order", turnMeta("response-1", 1, 2).put("traceparent", SECOND)));
    awaitGathering(later);
    call("mcp-trace-2", FIRST, "look_up_order", turnMeta("response-1", 0, 2));
    later.get(30, TimeUnit.SECONDS);

    assertThat(await(shop.ratchet.journal().submittedTurn("mcp-trace-2", "response-1")).traceparent())
        .isEqualTo(FIRST);

    // a call without one leaves the turn to a later call that has one; a malformed one counts as none
    CompletableFuture<JsonObject> first = CompletableFuture.supplyAsync(() -> callUnchecked("mcp-trace-2",
        "00-not-a-trace-01", "look_up_order", turnMeta("response-2", 0, 3)));
    awaitGathering(first);
    CompletableFuture<JsonObject> second = CompletableFuture.supplyAsync(() -> callUnchecked("mcp-trace-2", null,
        "look_up_order", turnMeta("response-2", 1, 3).put("traceparent", SECOND)));
    awaitGathering(second);
    call("mcp-trace-2", null, "look_up_order", turnMeta("response-2", 2, 3));
    first.get(30, TimeUnit.SECONDS);
    second.get(30, TimeUnit.SECONDS);

    assertThat(await(shop.ratchet.journal().submittedTurn("mcp-trace-2", "response-2")).traceparent())
        .isEqualTo(SECOND);
  }

  private static void awaitGathering(CompletableFuture<JsonObject> waiting) throws InterruptedException {
    // the call waits for the others of its model response; give its request time to arrive
    Thread.sleep(300);
    assertThat(waiting).isNotDone();
  }

  private static JsonObject turnMeta(String turn, int index, int count) {
    return new JsonObject().put("dev.ratchet/turn", turn).put("dev.ratchet/index", index)
        .put("dev.ratchet/count", count);
  }

  private JsonObject callUnchecked(String session, String traceparent, String tool, JsonObject meta) {
    try {
      return call(session, traceparent, tool, meta);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** One tools/call as plain JSON, in the Ratchet session {@code session}; the JSON-RPC answer. */
  private JsonObject call(String session, String traceparent, String tool, JsonObject meta) throws Exception {
    JsonObject params = new JsonObject().put("name", tool).put("arguments", new JsonObject().put("id", "1"))
        .put("_meta", meta);
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(shop.baseUrl() + "/mcp/shop"))
        .timeout(Duration.ofSeconds(40)).header("Content-Type", "application/json")
        .header("Accept", "application/json").header("Authorization", "Bearer " + ShopRuntime.AGENT_TOKEN)
        .header("ratchet-session", session)
        .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("jsonrpc", "2.0").put("id", 1)
            .put("method", "tools/call").put("params", params).encode()));
    if (traceparent != null) {
      b.header("traceparent", traceparent);
    }
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonObject answer = new JsonObject(r.body());
    assertThat(answer.containsKey("result")).as(r.body()).isTrue();
    return answer;
  }
}
