package dev.ratchet.turns.testing;

import dev.ratchet.runtime.testing.FakeOpenAiServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.List;

/**
 * A chat-completions model on loopback for the framework adapters' test classes: it asks for the
 * tool calls set by {@link #respond} and, once the last message is a tool's answer, replies
 * {@code "The shop said: "} followed by that answer. It serves from before the class's own
 * {@code @BeforeAll} methods until after its {@code @AfterAll} methods.
 */
public final class ToolCallingModel implements BeforeAllCallback, AfterAllCallback {

  private volatile JsonObject toolResponse;
  private FakeOpenAiServer server;

  @Override
  public void beforeAll(ExtensionContext context) {
    server = new FakeOpenAiServer(this::answer);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    server.close();
  }

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
}
