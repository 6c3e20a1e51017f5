package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.TurnResult;
import io.vertx.core.AsyncResult;

/**
 * Where the outcome of a turn goes when its submission named a reply address: the node that runs
 * the turn (its session's owner, or the node that resumes it after a takeover) answers, once per
 * address, with the results or with why the turn could not complete there. A run stopped because
 * another node took the session over, or because this node stopped driving it, is not answered:
 * the node that resumes the turn answers the address journaled with it. docs/EVENT-BUS.md.
 */
@FunctionalInterface
public interface TurnReplies {

  /** Answers nothing. */
  TurnReplies NONE = (replyAddress, turnId, outcome) -> { };

  void answer(String replyAddress, String turnId, AsyncResult<TurnResult> outcome);
}
