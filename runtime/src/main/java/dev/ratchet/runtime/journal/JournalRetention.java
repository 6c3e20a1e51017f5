package dev.ratchet.runtime.journal;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * The journal's retention capability: what the sweeper reads to decide what a session may lose, the
 * one fenced step that removes it (leaving a tombstone per removed turn), erasure and import. J9
 * holds in every implementation: {@link #remove} re-checks each turn in the same atomic step and
 * never removes a call without a final outcome, an unreconciled {@code outcome_unknown}, a pending
 * approval, a turn in flight, or the session's meta (owner, epoch, caller). {@code
 * RetentionContract} (runtime's test sources) checks both journals.
 */
public interface JournalRetention {

  /** Sessions whose last activity is at or after {@code since} (epoch millis), oldest first, at most {@code limit}. */
  Future<List<SessionActivity>> activeSince(long since, int limit);

  /** Schedules the session's next retention check at {@code dueAt}; a negative time unschedules it. */
  Future<Void> schedule(String sessionId, long dueAt);

  /** Sessions whose retention check is due at {@code now}, most overdue first, at most {@code limit}. */
  Future<List<String>> due(long now, int limit);

  /** Everything the journal holds of a session (turns with their results, events, conversation, tombstones); null when unknown. */
  Future<SessionHistory> history(String sessionId);

  /**
   * One fenced step (J4: {@code epoch} must still be the session's): removes the turns named whose
   * removal J9 allows, each leaving its tombstone until {@code tombstonesUntil}; drops tombstones
   * expired at {@code now}, remembering their turn ids so a resubmission is refused as expired; and,
   * with {@code wholeSession}, when the session has had no activity since {@code seenUpdatedAt}
   * and nothing in flight, removes its events and conversation too and marks it archived. Answers
   * what was removed.
   */
  Future<Removal> remove(String sessionId, long epoch, RemovalPlan plan);

  /**
   * Forgets an archived session, in one fenced step: removes its meta and every key it has left once
   * it was archived at or before {@code archivedBefore}, has had no activity since {@code
   * seenUpdatedAt}, holds nothing in flight and keeps no tombstone. Its id is remembered first, so a
   * later claim of it fails with {@code SESSION_FORGOTTEN} instead of starting the session again
   * (Redis remembers the last 250,000 to 500,000 forgotten ids in a fixed-size filter). Answers
   * whether the session was forgotten.
   */
  Future<Boolean> forget(String sessionId, long epoch, long seenUpdatedAt, long archivedBefore);

  /**
   * Makes this journal's claims refuse the sessions retention forgot ({@code SESSION_FORGOTTEN}). A
   * journal refuses them once it has forgotten one itself; every node sharing a journal with a node
   * that forgets calls this at start.
   */
  Future<Void> refuseForgotten();

  /**
   * Removes every key of the session (journal, tombstones, indexes) and appends an audit entry
   * (who, when, which session; never content) to the audit stream. Answers false when the journal
   * does not know the session, and then audits nothing.
   */
  Future<Boolean> erase(String sessionId, String who);

  /** The audit stream's entries, oldest first, at most {@code count}: {@code {id, action, session, who, at}}. */
  Future<List<JsonObject>> audit(int count);

  /**
   * Writes an exported session's completed turns into the journal as completed turns (their results
   * answer resubmissions, rule 1). Fails with {@code SESSION_EXISTS} and writes nothing when the
   * journal already knows the session. Answers the number of turns written.
   */
  Future<Integer> importSession(SessionHistory history);

  /** A session and the time of its last activity. */
  record SessionActivity(String sessionId, long at) {
  }
}
