package dev.ratchet.server.config;

import dev.ratchet.runtime.agent.ChatModel;

/** Turns an agent file's {@code model} ({@code openai:gpt-4.1-mini}, {@code scripted}) into a model, and the defaults of agent files. */
@FunctionalInterface
public interface AgentModels {

  /** The model for this spec; fails with {@link IllegalArgumentException} saying what is missing or wrong. */
  ChatModel model(String spec);

  /** Tool turns per user message of an agent file that does not say {@code maxTurns}. */
  default int defaultMaxTurns() {
    return dev.ratchet.runtime.AgentDefinition.DEFAULT_MAX_TURNS;
  }
}
