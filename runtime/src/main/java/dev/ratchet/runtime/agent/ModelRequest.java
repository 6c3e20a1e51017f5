package dev.ratchet.runtime.agent;

import java.util.List;

/** What a model is asked: the conversation so far and the tools it may call. */
public record ModelRequest(List<ChatMessage> messages, List<ToolSpec> tools) {

  public ModelRequest {
    messages = List.copyOf(messages);
    tools = tools == null ? List.of() : List.copyOf(tools);
  }

  /** The text of the last user message, or null. */
  public String lastUserText() {
    for (int i = messages.size() - 1; i >= 0; i--) {
      if (messages.get(i).role() == ChatMessage.Role.USER) {
        return messages.get(i).text();
      }
    }
    return null;
  }

  /** The messages after the last user message (assistant tool calls and their results). */
  public List<ChatMessage> sinceLastUser() {
    for (int i = messages.size() - 1; i >= 0; i--) {
      if (messages.get(i).role() == ChatMessage.Role.USER) {
        return messages.subList(i + 1, messages.size());
      }
    }
    return messages;
  }
}
