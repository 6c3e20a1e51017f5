package dev.ratchet.turns.testing;

import dev.ratchet.runtime.testing.FakeOpenAiServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * A chat-completions model on loopback for the framework adapters: it asks for the tool calls set
 * by {@link #respond} and, once the last message is a tool's answer, replies
 * {@code "The shop said: "} followed by that answer.
 */
public final class ToolCallingModel implements AutoCloseable {

  private volatile JsonObject toolResponse;
  private final FakeOpenAiServer server = new FakeOpenAiServer(this::answer);

  /** The next completion asks for these tool calls: triples of (call id, tool name, arguments json). */
  public void respond(String completionId, String... idNameArgs) {
    toolResponse = FakeOpenAiServer.toolCalls(idNameArgs).put("id", completionId);
  }

  /** The base URL an OpenAI client takes, ending in {@code /v1}. */
  public String baseUrl() {
    return server.baseUrl();
  }

  public List<JsonObject> requests() {
    return server.requests();
  }

  private JsonObject answer(JsonObject body) {
    JsonArray messages = body.getJsonArray("messages");
    JsonObject last = messages.getJsonObject(messages.size() - 1);
    return "tool".equals(last.getString("role")) ? FakeOpenAiServer.text("The shop said: " + last.getString("content"))
        : toolResponse;
  }

  @Override
  public void close() {
    server.close();
  }
}
