package dev.ratchet.runtime;

import io.vertx.core.json.JsonObject;

import java.util.Objects;

/**
 * One tool call as the model asked for it. {@code modelCallId} is the model provider's own id
 * for the call (for example OpenAI's {@code tool_call_id}); it is carried back with the result.
 */
public record ToolCall(String name, JsonObject arguments, String modelCallId) {

  public ToolCall {
    Objects.requireNonNull(name, "name");
    arguments = arguments == null ? new JsonObject() : arguments;
  }

  public ToolCall(String name, JsonObject arguments) {
    this(name, arguments, null);
  }

  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("name", name).put("arguments", arguments);
    if (modelCallId != null) {
      json.put("modelCallId", modelCallId);
    }
    return json;
  }

  public static ToolCall fromJson(JsonObject json) {
    Object name = json.getValue("name");
    if (!(name instanceof String) || ((String) name).isEmpty()) {
      throw new IllegalArgumentException("a call needs 'name', a non-empty string");
    }
    Object args = json.getValue("arguments");
    if (args != null && !(args instanceof JsonObject)) {
      throw new IllegalArgumentException("call '" + name + "': 'arguments' must be a JSON object");
    }
    Object modelCallId = json.getValue("modelCallId");
    if (modelCallId != null && !(modelCallId instanceof String)) {
      throw new IllegalArgumentException("call '" + name + "': 'modelCallId' must be a string");
    }
    return new ToolCall((String) name, (JsonObject) args, (String) modelCallId);
  }
}
