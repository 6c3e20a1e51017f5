package dev.ratchet.runtime;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.LinkedHashMap;
import java.util.Objects;

/**
 * One tool call as the model asked for it. {@code modelCallId} is the model provider's own id
 * for the call (for example OpenAI's {@code tool_call_id}); it is carried back with the result.
 * {@code rawArguments} is the model's argument text when it was not a JSON object (null otherwise):
 * it is kept as written, so that the model sees in its history what it sent, and the call fails
 * validation with {@link #argumentsProblem()}.
 */
public record ToolCall(String name, JsonObject arguments, String modelCallId, String rawArguments) {

  public ToolCall {
    Objects.requireNonNull(name, "name");
    arguments = arguments == null ? new JsonObject() : arguments;
  }

  public ToolCall(String name, JsonObject arguments, String modelCallId) {
    this(name, arguments, modelCallId, null);
  }

  public ToolCall(String name, JsonObject arguments) {
    this(name, arguments, null, null);
  }

  /** A call whose argument text is not a JSON object; it fails validation and nothing runs. */
  public static ToolCall unparsable(String name, String rawArguments, String modelCallId) {
    return new ToolCall(name, new JsonObject(), modelCallId, Objects.requireNonNull(rawArguments, "rawArguments"));
  }

  /** The same call under another provider id. */
  public ToolCall withModelCallId(String id) {
    return new ToolCall(name, arguments, id, rawArguments);
  }

  /** The argument text as the model wrote it (the JSON encoding when it was valid). */
  public String argumentsText() {
    return rawArguments != null ? rawArguments : arguments.encode();
  }

  /** Null when the arguments were a JSON object, else what is wrong with the text, parser position included. */
  public String argumentsProblem() {
    if (rawArguments == null) {
      return null;
    }
    Object parsed;
    try {
      parsed = Json.decodeValue(rawArguments);
    } catch (DecodeException e) {
      String detail = e.getCause() instanceof JsonProcessingException jackson
          ? jackson.getOriginalMessage() + (jackson.getLocation() == null ? ""
              : " at line " + jackson.getLocation().getLineNr() + ", column " + jackson.getLocation().getColumnNr())
          : e.getMessage();
      return "the arguments are not valid JSON: " + detail + "; send the arguments as one JSON object";
    }
    return "the arguments are not a JSON object but " + (parsed == null ? "null" : "a JSON "
        + (parsed instanceof JsonArray ? "array" : parsed instanceof String ? "string"
        : parsed instanceof Boolean ? "boolean" : "number")) + "; send the arguments as one JSON object";
  }

  public JsonObject toJson() {
    // two fields, four at most: a map sized for them
    JsonObject json = new JsonObject(new LinkedHashMap<>(4)).put("name", name).put("arguments", arguments);
    if (modelCallId != null) {
      json.put("modelCallId", modelCallId);
    }
    if (rawArguments != null) {
      json.put("rawArguments", rawArguments);
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
    Object raw = json.getValue("rawArguments");
    if (raw != null && !(raw instanceof String)) {
      throw new IllegalArgumentException("call '" + name + "': 'rawArguments' must be a string");
    }
    return new ToolCall((String) name, (JsonObject) args, (String) modelCallId, (String) raw);
  }
}
