package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.TurnResult;

/**
 * What the journal says when a turn is submitted: new, already running, already completed (with
 * its results), or a conflict (the turn id was used for different calls). {@code writeStarted}
 * says whether the first write passed along with a new turn was journaled as started.
 */
public record SubmitAnswer(Status status, TurnResult results, boolean writeStarted) {

  /** An answer that journaled no write as started. */
  public SubmitAnswer(Status status, TurnResult results) {
    this(status, results, false);
  }

  /** The turn's state as the journal knows it. */
  public enum Status { NEW, RUNNING, COMPLETED, CONFLICT }
}
