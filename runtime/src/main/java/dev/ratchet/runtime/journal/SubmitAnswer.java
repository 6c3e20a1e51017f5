package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.TurnResult;

/**
 * What the journal says when a turn is submitted: new, already running, already completed (with
 * its results), or a conflict (the turn id was used for different calls).
 */
public record SubmitAnswer(Status status, TurnResult results) {

  /** The turn's state as the journal knows it. */
  public enum Status { NEW, RUNNING, COMPLETED, CONFLICT }
}
