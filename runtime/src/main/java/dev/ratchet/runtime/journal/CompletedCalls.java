package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.CallResult;

import java.util.List;

/** The records a group commit journaled, in the order given, and whether it also completed their turn. */
public record CompletedCalls(List<CallResult> records, boolean turnCompleted) {
}
