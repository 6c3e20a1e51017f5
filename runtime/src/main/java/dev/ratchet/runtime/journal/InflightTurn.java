package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.Turn;

import java.util.Map;

/**
 * A turn journaled as submitted but not completed, with what is known of each call: recovery's
 * input. {@code catalogue} is the version of the agent's catalogue it was validated against
 * (null when it was journaled without one); {@code replyAddress} the event-bus address its
 * results go to (null: none).
 */
public record InflightTurn(Turn turn, long submittedAt, Map<String, CallState> calls, String catalogue,
                           String replyAddress) {

  public InflightTurn(Turn turn, long submittedAt, Map<String, CallState> calls) {
    this(turn, submittedAt, calls, null, null);
  }

  public InflightTurn(Turn turn, long submittedAt, Map<String, CallState> calls, String catalogue) {
    this(turn, submittedAt, calls, catalogue, null);
  }
}
