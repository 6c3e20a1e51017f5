package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.TurnResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * The journal port: what the engine and the agent loop write, and what they read back to recover a
 * session. Everything else a store offers is a port of its own, which a store implements when it
 * can and a caller asks for by name: the read side for views ({@link JournalQueries}), retention
 * and erasure ({@link JournalRetention}), the store's health and figures ({@link JournalDiagnostics}).
 * Its steps are grouped by role: turns and calls ({@link TurnSteps}), decisions
 * ({@link DecisionSteps}), the agent loop ({@link LoopSteps}). An implementation
 * ({@link RedisJournal}, {@link InMemoryJournal}) keeps these contracts, which
 * {@code SessionJournalContract} (the journal TCK in the test sources) checks:
 * <ul>
 *   <li><b>Fencing (J4).</b> {@link #claim} gives the session's owner a new epoch, greater than every
 *   epoch before it. Every write that takes an {@code epoch} fails with a
 *   {@link dev.ratchet.runtime.RatchetException} of code {@code FENCED} when it is not the session's
 *   current epoch, and then changes nothing.</li>
 *   <li><b>Atomic steps.</b> Each method is one step: it is journaled whole or not at all, and a
 *   failed step changes nothing.</li>
 *   <li><b>Acknowledged means durable.</b> A step whose future succeeded is seen by every later read
 *   and claim, of this instance and, for a shared store, of any other.</li>
 *   <li><b>Errors.</b> A store that cannot be reached fails with code {@code JOURNAL_UNAVAILABLE}
 *   (the engine retries); a step the store refuses fails with {@code JOURNAL_ERROR}.</li>
 * </ul>
 * Safe to share between sessions and threads; futures may complete on any thread.
 */
public interface SessionJournal extends TurnSteps, DecisionSteps, LoopSteps {

  // ---------------------------------------------------------------- ownership (J4) and recovery

  /**
   * Takes ownership of a session: records {@code owner}, journals {@code session.claimed}, and
   * answers in the same step the new epoch, the session's caller and the turns it holds in flight
   * (as {@link #inflightTurns}), oldest first.
   */
  Future<ClaimedSession> claim(String sessionId, String owner);

  /** Turns journaled but not completed, oldest first, with each call's state: what recovery resumes. */
  Future<List<InflightTurn>> inflightTurns(String sessionId);

  /**
   * A completed turn's results, its calls' records in the model's order as they were first journaled
   * (J7: a later reconciliation does not change what a completed turn answers); null when the turn is
   * unknown or still running.
   */
  Future<TurnResult> turnResult(String sessionId, String turnId);

  /** What the journal holds about one call; {@link CallState#fresh} when nothing. */
  Future<CallState> callState(String sessionId, CallId callId);

  /** The approval request a call journaled, decided or not; null when it asked none. */
  Future<ApprovalRequest> approvalRequest(String sessionId, CallId callId);

  /** A session's conversation entries (agent loop) in order: user messages, model responses, round ends. */
  Future<List<JsonObject>> conversation(String sessionId);

  // ---------------------------------------------------------------- lifecycle

  /**
   * Drops a session from the sessions recovery resumes ({@link JournalQueries#activeSessions});
   * called when it has nothing in flight. Only its owner drops it: under an {@code epoch} that is
   * no longer the session's current one this leaves the session listed, so that a copy of the
   * session that lost it to a newer claim cannot hide the newer owner's work from takeover.
   */
  Future<Void> markIdle(String sessionId, long epoch);

  /** Releases the journal's connections; the journal is not used afterwards. */
  Future<Void> close();
}
