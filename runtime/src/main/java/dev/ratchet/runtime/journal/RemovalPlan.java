package dev.ratchet.runtime.journal;

import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * What one retention step removes from a session: the turns (each with its call ids, its event ids
 * and its tombstone), whether the whole idle session goes, and the times the step checks against.
 */
public record RemovalPlan(long now, List<TurnRemoval> turns, long tombstonesUntil, boolean wholeSession,
                          long seenUpdatedAt) {

  /** One turn to remove; {@code tombstone} is what a resubmission of it is answered from. */
  public record TurnRemoval(String turnId, List<String> callIds, List<String> eventIds, JsonObject tombstone) {
  }
}
