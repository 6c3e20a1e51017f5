package dev.ratchet.runtime.agent;

import io.vertx.core.Future;

/**
 * A language model as Ratchet's agent loop uses it: messages and tool specifications in, text
 * and/or tool calls out. Implementations must not block the calling thread. A failed future is
 * retried per the agent's model retry policy; every response that succeeded is journaled before
 * its tool calls run and is never requested again.
 */
public interface ChatModel {

  Future<ModelResponse> chat(ModelRequest request);

  /** A short name for logs and the console, for example {@code openai:gpt-4.1-mini}. */
  default String describe() {
    return getClass().getSimpleName();
  }
}
