package dev.ratchet.runtime.agent;

import dev.ratchet.runtime.ToolCall;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * What a model answered: text, tool calls, or both. A response without tool calls is the agent's
 * final answer for the user's message.
 */
public record ModelResponse(String text, List<ToolCall> toolCalls) {

  public ModelResponse {
    toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
  }

  public static ModelResponse text(String text) {
    return new ModelResponse(text, List.of());
  }

  public static ModelResponse toolCalls(ToolCall... calls) {
    return new ModelResponse(null, List.of(calls));
  }

  public boolean hasToolCalls() {
    return !toolCalls.isEmpty();
  }

  public JsonObject toJson() {
    JsonObject json = new JsonObject();
    if (text != null) {
      json.put("text", text);
    }
    JsonArray calls = new JsonArray();
    toolCalls.forEach(c -> calls.add(c.toJson()));
    return json.put("toolCalls", calls);
  }

  public static ModelResponse fromJson(JsonObject json) {
    List<ToolCall> calls = new ArrayList<>();
    for (Object o : json.getJsonArray("toolCalls", new JsonArray())) {
      calls.add(recorded(ToolCall.fromJson((JsonObject) o)));
    }
    return new ModelResponse(json.getString("text"), calls);
  }

  /** Responses journaled with the unparsable text inside the arguments read as calls that keep the text aside. */
  private static ToolCall recorded(ToolCall call) {
    if (call.rawArguments() == null && call.arguments().size() == 1
        && call.arguments().getValue("_unparsableArguments") instanceof String raw) {
      return ToolCall.unparsable(call.name(), raw, call.modelCallId());
    }
    return call;
  }
}
