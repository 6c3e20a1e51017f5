package dev.ratchet.runtime.agent;

import dev.ratchet.runtime.ToolCall;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One message of a conversation as a model sees it: a user's text, an assistant's answer (text
 * and/or tool calls), or the result of one tool call (by the call's {@code modelCallId}).
 */
public record ChatMessage(Role role, String text, List<ToolCall> toolCalls, String toolCallId, String toolName) {

  /** Who a message is from. */
  public enum Role { SYSTEM, USER, ASSISTANT, TOOL }

  public ChatMessage {
    Objects.requireNonNull(role, "role");
    toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
  }

  public static ChatMessage system(String text) {
    return new ChatMessage(Role.SYSTEM, text, List.of(), null, null);
  }

  public static ChatMessage user(String text) {
    return new ChatMessage(Role.USER, text, List.of(), null, null);
  }

  public static ChatMessage assistant(String text, List<ToolCall> toolCalls) {
    return new ChatMessage(Role.ASSISTANT, text, toolCalls, null, null);
  }

  /** The result of a tool call, given back to the model; {@code content} is usually JSON text. */
  public static ChatMessage toolResult(String toolCallId, String toolName, String content) {
    return new ChatMessage(Role.TOOL, content, List.of(), toolCallId, toolName);
  }

  public boolean hasToolCalls() {
    return !toolCalls.isEmpty();
  }

  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("role", role.name().toLowerCase());
    if (text != null) {
      json.put("text", text);
    }
    if (!toolCalls.isEmpty()) {
      JsonArray calls = new JsonArray();
      toolCalls.forEach(c -> calls.add(c.toJson()));
      json.put("toolCalls", calls);
    }
    if (toolCallId != null) {
      json.put("toolCallId", toolCallId);
    }
    if (toolName != null) {
      json.put("toolName", toolName);
    }
    return json;
  }

  public static ChatMessage fromJson(JsonObject json) {
    List<ToolCall> calls = new ArrayList<>();
    for (Object o : json.getJsonArray("toolCalls", new JsonArray())) {
      calls.add(ToolCall.fromJson((JsonObject) o));
    }
    return new ChatMessage(Role.valueOf(json.getString("role").toUpperCase()), json.getString("text"), calls,
        json.getString("toolCallId"), json.getString("toolName"));
  }
}
