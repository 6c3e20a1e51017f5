package dev.ratchet.runtime.agent;

import io.vertx.core.AsyncResult;

/**
 * Where the reply to a user message goes when it was sent with a reply address: the node that runs
 * the session's agent loop (its owner, or the node that continues the round after a takeover)
 * answers, once per address, with the reply or with why the round could not end there. A round
 * stopped because another node took the session over is not answered: the node that continues it
 * answers the address journaled with the message. docs/EVENT-BUS.md.
 */
@FunctionalInterface
public interface MessageReplies {

  /** Answers nothing. */
  MessageReplies NONE = (replyAddress, messageId, outcome) -> { };

  void answer(String replyAddress, String messageId, AsyncResult<AgentReply> outcome);
}
