package dev.ratchet.server.config;

import dev.ratchet.runtime.agent.ChatModel;

/** Turns an agent file's {@code model} ({@code openai:gpt-4.1-mini}, {@code scripted}) into a model. */
@FunctionalInterface
public interface AgentModels {

  /** The model for this spec; fails with {@link IllegalArgumentException} saying what is missing or wrong. */
  ChatModel model(String spec);
}
