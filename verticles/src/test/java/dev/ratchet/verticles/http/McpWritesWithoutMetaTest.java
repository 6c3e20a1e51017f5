package dev.ratchet.verticles.http;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What docs/MCP-SERVER.md promises for {@code tools/call} without {@code _meta}: each call is its
 * own turn, and the writes of one session still run one at a time, through the session's write queue.
 */
class McpWritesWithoutMetaTest {

  @RegisterExtension
  static final ShopServer SHOP = new ShopServer();

  static final AtomicInteger running = new AtomicInteger();
  static final AtomicInteger mostAtOnce = new AtomicInteger();

  @BeforeAll
  static void start() {
    ShopRuntime shop = SHOP.runtime();
    FunctionToolSource tools = FunctionToolSource.create("slow-tools")
        .tool(FunctionToolSource.define("send_letter", EffectClass.NON_IDEMPOTENT_WRITE).description("Sends a letter")
            .handler(inv -> {
              mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
              Promise<Object> sent = Promise.promise();
              shop.vertx.setTimer(300, t -> {
                running.decrementAndGet();
                sent.complete(new JsonObject().put("sent", true));
              });
              return sent.future();
            }));
    await(shop.ratchet.register(AgentDefinition.builder("letters").toolSource(tools).build()));
  }

  @Test
  void twoWritesSentAtOnceWithoutMetaRunOneAtATimeEachInItsOwnTurn() throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    List<CompletableFuture<HttpResponse<String>>> answers = List.of(1, 2).stream().map(i -> http.sendAsync(
        HttpRequest.newBuilder(URI.create(SHOP.baseUrl() + "/mcp/letters")).timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json").header("Accept", "application/json")
            .header("Authorization", "Bearer " + ShopRuntime.AGENT_TOKEN).header("ratchet-session", "letters-1")
            .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("jsonrpc", "2.0").put("id", i)
                .put("method", "tools/call").put("params", new JsonObject().put("name", "send_letter")
                    .put("arguments", new JsonObject().put("to", "reader " + i))).encode())).build(),
        HttpResponse.BodyHandlers.ofString())).toList();
    for (CompletableFuture<HttpResponse<String>> a : answers) {
      JsonObject result = new JsonObject(a.get(30, TimeUnit.SECONDS).body()).getJsonObject("result");
      assertThat(result.getBoolean("isError")).as(result.encode()).isFalse();
      assertThat(result.getJsonObject("_meta").getString("dev.ratchet/turn")).startsWith("mcp-");
    }
    assertThat(mostAtOnce.get()).as("writes of one session running at the same time").isEqualTo(1);
  }
}
