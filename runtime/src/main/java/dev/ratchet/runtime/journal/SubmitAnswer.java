package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.TurnResult;

/**
 * What the journal says when a turn is submitted: new, already running, already completed (with
 * its results), a conflict (the turn id was used for different calls), or expired (retention
 * removed the turn and its tombstone window has passed: it is never run again). {@code writeStarted}
 * says whether the first write passed along with a new turn was journaled as started.
 */
public record SubmitAnswer(Status status, TurnResult results, boolean writeStarted) {

  /** An answer that journaled no write as started. */
  public SubmitAnswer(Status status, TurnResult results) {
    this(status, results, false);
  }

  /** The turn's state as the journal knows it. */
  public enum Status { NEW, RUNNING, COMPLETED, CONFLICT, EXPIRED }
}
