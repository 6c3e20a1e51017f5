package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.TurnResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.function.Function;

/**
 * The journal port: what the engine and the agent loop write, and what they read back to recover a
 * session. Everything else a store offers is a port of its own, which a store implements when it
 * can and a caller asks for by name: the read side for views ({@link JournalQueries}), retention
 * and erasure ({@link JournalRetention}), the store's health and figures ({@link JournalDiagnostics}).
 * An implementation ({@link RedisJournal}, {@link InMemoryJournal}) keeps these contracts, which
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
public interface SessionJournal {

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

  // ---------------------------------------------------------------- turns (rule 1, J7)

  /**
   * Journals a turn once (rule 1). A turn id already journaled journals nothing and answers
   * {@code RUNNING}, {@code COMPLETED} with the first results, or {@code CONFLICT} when the same id
   * came with other calls (compared by the canonical form of the turn's spec). A new session is
   * created for the submission's agent with its caller and creator; an existing session belonging
   * to another agent fails with {@code AGENT_MISMATCH}; a caller that is not the session's own (or
   * a session created without one) fails with {@code CALLER_MISMATCH}, checked before the turn is
   * looked up, and journals nothing. {@link TurnSubmission} says what else the step records (the
   * catalogue version and reply address, which are no part of the turn's identity), whether it
   * lists the session for recovery, and the write it journals as started (J2) in the same step when
   * the turn is new, which the answer's {@code writeStarted} says.
   */
  Future<SubmitAnswer> submitTurn(TurnSubmission submission);

  /**
   * Journals a turn's results before they are delivered (J7) and takes it out of the in-flight
   * turns. A turn already completed keeps its results and this answers them; else it answers
   * {@code result}.
   */
  Future<TurnResult> turnCompleted(String sessionId, long epoch, TurnResult result);

  // ---------------------------------------------------------------- calls (J1, J2, J8)

  /**
   * Journals that attempt {@code start.attempt()} of a call is about to send its request (J2: before
   * the send), with the {@code call.started} event's {@code data}; the call's state becomes
   * {@code started} and its attempts that attempt (J8). When the call already has an outcome (J1)
   * nothing is journaled and this answers that record (nothing may be sent), else null.
   */
  Future<CallResult> callStarted(String sessionId, long epoch, String turnId, CallStart start);

  /**
   * Group commit: journals several calls' outcomes of one turn in one step, each exactly once (J1).
   * Answers the journaled records in the order given (an earlier record where a call had one). When
   * {@code turnResult} is given and every outcome was new, the turn is completed in the same step
   * (J7), which fails with {@code JOURNAL_ERROR} and journals nothing when one of the turn's other
   * calls has no outcome. When {@code nextWrite} is given, every outcome was new and the turn goes
   * on, that write is journaled as started (J2) in the same step. {@code resultTexts} may give a
   * record's result already encoded as JSON (null: encode it here).
   */
  Future<CompletedCalls> callsCompleted(String sessionId, long epoch, String turnId, List<CallResult> records,
                                        TurnResult turnResult, CallStart nextWrite,
                                        Function<CallResult, String> resultTexts);

  /** Appends an informational step event ({@code call.attempt_failed}, ...), fenced like every write. */
  Future<Void> appendEvent(String sessionId, long epoch, String type, String turnId, String callId, JsonObject data);

  // ---------------------------------------------------------------- approvals (J5, rule 8)

  /**
   * Journals that a write waits for a decision (J5) and lists it among the pending approvals
   * ({@link JournalQueries#pendingApprovals}) until decided. Asking again keeps the first request
   * and answers its status ({@code pending}, {@code approved}, ...); a call that already has an
   * outcome answers {@code decided}; else {@code pending}. Requests and decisions survive restarts
   * like every step.
   */
  Future<String> approvalRequested(long epoch, ApprovalRequest request);

  /**
   * Journals a decision ({@code approved}, {@code rejected} or {@code expired}) after checking it
   * (rule 8). Not fenced: any node may decide. Answers {@code UNKNOWN_CALL} (no request),
   * {@code ALREADY_DECIDED} (journals nothing), {@code STALE} (the arguments hash is not the
   * request's; journals nothing), {@code EXPIRED} (an approval or rejection after the request
   * expired: the request is journaled expired instead) or {@code ACCEPTED}. An approval's edited
   * arguments are recorded with the hash of the arguments the approver was shown and who edited
   * them (see {@link Verdict}); the request keeps the original arguments.
   */
  Future<DecisionAnswer> approvalDecided(String sessionId, CallId callId, Verdict verdict);

  /**
   * Records a person's finding ({@code SUCCEEDED} or {@code FAILED}) for an {@code outcome_unknown}
   * call, with who made it, and journals {@code call.reconciled}. Fails with {@code INVALID_REQUEST}
   * for {@code OUTCOME_UNKNOWN}, {@code UNKNOWN_CALL} when the call has no record, {@code NOT_UNKNOWN}
   * when its outcome is known. A completed turn keeps answering its first results (J7).
   */
  Future<CallResult> reconcile(String sessionId, CallId callId, Outcome outcome, String who, String note);

  // ---------------------------------------------------------------- agent loop

  /**
   * Appends a user message to the session's conversation once per message id and journals
   * {@code message.user}; a repeated id journals nothing and answers where the first one is.
   * Creates the session like {@link #submitTurn}, with its agent and caller rules, and lists it
   * for recovery.
   */
  Future<ConversationAppend> messageUser(UserMessage message);

  /**
   * Records a model response for loop step {@code step} once, before any of its tool calls run, and
   * journals {@code model.response}. Fails with {@code STEP_OUT_OF_ORDER} when the step does not
   * follow the last recorded one; a step already recorded journals nothing and answers its first entry.
   */
  Future<ConversationAppend> modelResponse(String sessionId, long epoch, long step, String turnId, JsonObject entry,
                                           JsonObject eventData);

  /**
   * Ends a round once per {@code endId}: appends {@code entry} to the conversation and journals an
   * event of {@code eventType} ({@code message.assistant} or {@code model.failed}); a repeated end
   * id journals nothing and answers where the first one is.
   */
  Future<ConversationAppend> roundEnded(String sessionId, long epoch, String endId, String eventType,
                                        JsonObject entry, JsonObject eventData);

  // ---------------------------------------------------------------- lifecycle

  /**
   * Drops a session from the sessions recovery resumes ({@link JournalQueries#activeSessions});
   * called when it has nothing in flight.
   */
  Future<Void> markIdle(String sessionId);

  /** Releases the journal's connections; the journal is not used afterwards. */
  Future<Void> close();

  /**
   * A decision on an approval request, as {@link #approvalDecided} journals it.
   *
   * @param argumentsHash the hash of the arguments the approver was shown; must be the request's
   * @param status {@code approved}, {@code rejected} or {@code expired}
   * @param approver who decided
   * @param reason why (null: none)
   * @param editedArguments an approval's arguments as the approver edited them, already validated
   *     against the tool's schema, which the call then runs with (null: as requested; ignored
   *     for any other status)
   */
  record Verdict(String argumentsHash, String status, String approver, String reason, JsonObject editedArguments) {

    /** A decision with the arguments as requested. */
    public Verdict(String argumentsHash, String status, String approver, String reason) {
      this(argumentsHash, status, approver, reason, null);
    }
  }
}
