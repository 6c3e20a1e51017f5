package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.Turn;

import java.util.Map;

/** A turn journaled as submitted but not completed, with what is known of each call: recovery's input. */
public record InflightTurn(Turn turn, long submittedAt, Map<String, CallState> calls) {
}
