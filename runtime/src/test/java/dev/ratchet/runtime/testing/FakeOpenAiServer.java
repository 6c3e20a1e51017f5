package dev.ratchet.runtime.testing;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import static dev.ratchet.runtime.testing.Await.await;

/**
 * A real HTTP server on loopback that speaks the OpenAI chat completions protocol
 * ({@code POST /v1/chat/completions}), answering each request with what a script computes from
 * its JSON body, and keeping every request. Point an OpenAI client at {@link #baseUrl()}.
 */
public final class FakeOpenAiServer implements AutoCloseable {

  private final Vertx vertx = Vertx.vertx();
  private final HttpServer server;
  private final List<JsonObject> requests = new CopyOnWriteArrayList<>();
  private volatile Function<JsonObject, JsonObject> script;
  private volatile int failWith;

  public FakeOpenAiServer(Function<JsonObject, JsonObject> script) {
    this.script = script;
    server = await(vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(body -> {
      if (!req.path().endsWith("/chat/completions")) {
        req.response().setStatusCode(404).end();
        return;
      }
      JsonObject json = body.toJsonObject();
      requests.add(json);
      if (failWith > 0) {
        req.response().setStatusCode(failWith).putHeader("content-type", "application/json")
            .end(new JsonObject().put("error", new JsonObject().put("message", "the server is overloaded")
                .put("type", "server_error")).encode());
        return;
      }
      JsonObject answer;
      try {
        answer = this.script.apply(json);
      } catch (RuntimeException e) {
        req.response().setStatusCode(500).end(String.valueOf(e.getMessage()));
        return;
      }
      req.response().putHeader("content-type", "application/json").end(answer.encode());
    })).listen(0, "127.0.0.1"));
  }

  /** The base URL an OpenAI client takes, ending in {@code /v1}. */
  public String baseUrl() {
    return "http://127.0.0.1:" + server.actualPort() + "/v1";
  }

  public List<JsonObject> requests() {
    return List.copyOf(requests);
  }

  public void script(Function<JsonObject, JsonObject> script) {
    this.script = script;
  }

  /** Answers every request with this HTTP status (0: answer normally). */
  public void failWith(int status) {
    this.failWith = status;
  }

  /** A completion whose message asks for tool calls: pairs of (id, name, arguments json). */
  public static JsonObject toolCalls(String... idNameArgs) {
    JsonArray calls = new JsonArray();
    for (int i = 0; i + 2 < idNameArgs.length; i += 3) {
      calls.add(new JsonObject().put("id", idNameArgs[i]).put("type", "function")
          .put("function", new JsonObject().put("name", idNameArgs[i + 1]).put("arguments", idNameArgs[i + 2])));
    }
    return completion(new JsonObject().put("role", "assistant").putNull("content").put("tool_calls", calls),
        "tool_calls");
  }

  /** A completion with a text answer and no tool calls. */
  public static JsonObject text(String text) {
    return completion(new JsonObject().put("role", "assistant").put("content", text), "stop");
  }

  private static JsonObject completion(JsonObject message, String finish) {
    return new JsonObject().put("id", "chatcmpl-test").put("object", "chat.completion")
        .put("created", System.currentTimeMillis() / 1000).put("model", "test-model")
        .put("choices", new JsonArray().add(new JsonObject().put("index", 0).put("message", message)
            .put("finish_reason", finish)))
        .put("usage", new JsonObject().put("prompt_tokens", 10).put("completion_tokens", 5).put("total_tokens", 15));
  }

  @Override
  public void close() {
    await(vertx.close());
  }
}
