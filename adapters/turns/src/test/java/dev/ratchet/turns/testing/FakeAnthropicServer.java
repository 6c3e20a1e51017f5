package dev.ratchet.turns.testing;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import static dev.ratchet.runtime.testing.Await.await;

/**
 * A real HTTP server on loopback that speaks Anthropic's Messages protocol ({@code POST /v1/messages}),
 * answering each request with what a script computes from its JSON body, and keeping every request.
 */
public final class FakeAnthropicServer implements AutoCloseable {

  private final Vertx vertx = Vertx.vertx();
  private final HttpServer server;
  private final List<JsonObject> requests = new CopyOnWriteArrayList<>();
  private volatile Function<JsonObject, JsonObject> script;

  public FakeAnthropicServer(Function<JsonObject, JsonObject> script) {
    this.script = script;
    server = await(vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(body -> {
      if (!req.path().endsWith("/v1/messages")) {
        req.response().setStatusCode(404).end();
        return;
      }
      JsonObject json = body.toJsonObject();
      requests.add(json);
      req.response().putHeader("content-type", "application/json").end(this.script.apply(json).encode());
    })).listen(0, "127.0.0.1"));
  }

  /** The base URL an Anthropic client takes. */
  public String baseUrl() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  public List<JsonObject> requests() {
    return List.copyOf(requests);
  }

  public void script(Function<JsonObject, JsonObject> script) {
    this.script = script;
  }

  /** A message with this id asking for tool uses: triples of (tool_use id, name, input json). */
  public static JsonObject toolUses(String messageId, String... idNameInput) {
    JsonArray content = new JsonArray().add(new JsonObject().put("type", "text").put("text", "On it."));
    for (int i = 0; i + 2 < idNameInput.length; i += 3) {
      content.add(new JsonObject().put("type", "tool_use").put("id", idNameInput[i]).put("name", idNameInput[i + 1])
          .put("input", new JsonObject(idNameInput[i + 2])));
    }
    return message(messageId, content, "tool_use");
  }

  /** A message with a text answer. */
  public static JsonObject text(String messageId, String text) {
    return message(messageId, new JsonArray().add(new JsonObject().put("type", "text").put("text", text)), "end_turn");
  }

  private static JsonObject message(String id, JsonArray content, String stopReason) {
    return new JsonObject().put("id", id).put("type", "message").put("role", "assistant")
        .put("model", "claude-test").put("content", content).put("stop_reason", stopReason).putNull("stop_sequence")
        .put("usage", new JsonObject().put("input_tokens", 10).put("output_tokens", 5));
  }

  @Override
  public void close() {
    await(vertx.close());
  }
}
