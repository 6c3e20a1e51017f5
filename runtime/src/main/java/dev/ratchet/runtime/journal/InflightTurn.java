package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.Turn;

import java.util.Map;

/**
 * A turn journaled as submitted but not completed, with what is known of each call: recovery's
 * input. {@code catalogue} is the version of the agent's catalogue it was validated against
 * (null when it was journaled without one).
 */
public record InflightTurn(Turn turn, long submittedAt, Map<String, CallState> calls, String catalogue) {

  public InflightTurn(Turn turn, long submittedAt, Map<String, CallState> calls) {
    this(turn, submittedAt, calls, null);
  }
}
