package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.CallResult;

import java.util.List;

/** The records a group commit journaled, in the order given, and whether it also completed their turn
 * and journaled the next write as started. */
public record CompletedCalls(List<CallResult> records, boolean turnCompleted, boolean nextWriteStarted) {

  /** An answer that journaled no next write as started. */
  public CompletedCalls(List<CallResult> records, boolean turnCompleted) {
    this(records, turnCompleted, false);
  }
}
