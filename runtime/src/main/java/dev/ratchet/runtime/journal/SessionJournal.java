package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.function.Function;

/**
 * The journal port: every state transition of a session, as the engine and the agent loop make
 * them. An implementation ({@link RedisJournal}, {@link InMemoryJournal}) keeps these contracts,
 * which {@code SessionJournalContract} (the journal TCK in the test sources) checks:
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
public interface SessionJournal extends JournalQueries {

  // ---------------------------------------------------------------- ownership (J4)

  /** Takes ownership of a session: records {@code owner}, journals {@code session.claimed}, answers the new epoch. */
  Future<Long> claim(String sessionId, String owner);

  /**
   * As {@link #claim}, and answers in the same step the session's caller and the turns it holds in
   * flight (as {@link #inflightTurns}), oldest first.
   */
  Future<ClaimedSession> claimAndLoad(String sessionId, String owner);

  /** The session's current epoch; 0 when it was never claimed. */
  Future<Long> currentEpoch(String sessionId);

  /** Turns journaled but not completed, oldest first, with each call's state: what recovery resumes. */
  Future<List<InflightTurn>> inflightTurns(String sessionId);

  // ---------------------------------------------------------------- turns (rule 1, J7)

  /**
   * Journals a turn once (rule 1). A turn id already journaled journals nothing and answers
   * {@code RUNNING}, {@code COMPLETED} with the first results, or {@code CONFLICT} when the same id
   * came with other calls (compared by the canonical form of the turn's spec). A new session is
   * created for {@code agent} with {@code callerId} and {@code creator} (null: none); an existing
   * session belonging to another agent fails with {@code AGENT_MISMATCH}; a non-null
   * {@code callerId} that is not the session's own (or a session created without one) fails with
   * {@code CALLER_MISMATCH}, checked before the turn is looked up, and journals nothing. A null
   * {@code callerId} accepts the session's caller. {@code index} also lists the session for recovery
   * ({@link #activeSessions}) and among {@link #recentSessions}; {@code firstWrite}, when given, is
   * journaled as started (J2) in the same step if the turn is new, which the answer's
   * {@code writeStarted} says.
   */
  default Future<SubmitAnswer> submitTurn(String sessionId, long epoch, String agent, String callerId,
                                          String creator, Turn turn, boolean index, CallStart firstWrite) {
    return submitTurn(sessionId, epoch, agent, callerId, creator, turn, null, index, firstWrite);
  }

  /**
   * As {@link #submitTurn(String, long, String, String, String, Turn, boolean, CallStart)}, and
   * records with the turn's spec the version of the agent's catalogue it was validated against
   * ({@code catalogue}, null: none), under {@link Turn#CATALOGUE}: the turn's timeline and
   * {@link #inflightTurns} show it. The version is not part of the turn's identity: the same turn
   * submitted again under another catalogue is the same turn (rule 1).
   */
  default Future<SubmitAnswer> submitTurn(String sessionId, long epoch, String agent, String callerId, String creator,
                                          Turn turn, String catalogue, boolean index, CallStart firstWrite) {
    return submitTurn(sessionId, epoch, agent, callerId, creator, turn, catalogue, null, index, firstWrite);
  }

  /**
   * As {@link #submitTurn(String, long, String, String, String, Turn, String, boolean, CallStart)},
   * and records with a new turn's spec, under {@link Turn#REPLY_ADDRESS}, the event-bus address its
   * results go to ({@code replyAddress}, null: none), so that a node that resumes the turn answers
   * it; {@link #inflightTurns} shows it. Like the catalogue version, it is not part of the turn's
   * identity, and a turn already journaled keeps the address it was journaled with.
   */
  Future<SubmitAnswer> submitTurn(String sessionId, long epoch, String agent, String callerId, String creator,
                                  Turn turn, String catalogue, String replyAddress, boolean index,
                                  CallStart firstWrite);

  /** {@link #submitTurn(String, long, String, String, String, Turn, boolean, CallStart)}, indexed, no creator, no first write. */
  default Future<SubmitAnswer> submitTurn(String sessionId, long epoch, String agent, String callerId, Turn turn) {
    return submitTurn(sessionId, epoch, agent, callerId, null, turn, true, null);
  }

  /** {@link #submitTurn(String, long, String, String, Turn)} without a caller. */
  default Future<SubmitAnswer> submitTurn(String sessionId, long epoch, String agent, Turn turn) {
    return submitTurn(sessionId, epoch, agent, null, turn);
  }

  /** {@link #submitTurn(String, long, String, String, String, Turn, boolean, CallStart)} without a creator. */
  default Future<SubmitAnswer> submitTurn(String sessionId, long epoch, String agent, String callerId, Turn turn,
                                          boolean index, CallStart firstWrite) {
    return submitTurn(sessionId, epoch, agent, callerId, null, turn, index, firstWrite);
  }

  /**
   * Journals a turn's results before they are delivered (J7) and takes it out of the in-flight
   * turns. A turn already completed keeps its results and this answers them; else it answers
   * {@code result}.
   */
  Future<TurnResult> turnCompleted(String sessionId, long epoch, TurnResult result);

  // ---------------------------------------------------------------- calls (J1, J2, J8)

  /**
   * Journals that attempt {@code attempt} of a call is about to send its request (J2: before the
   * send), with the {@code call.started} event's {@code data}; the call's state becomes
   * {@code started} and its attempts {@code attempt} (J8). When the call already has an outcome
   * (J1) nothing is journaled and this answers that record (nothing may be sent), else null.
   */
  Future<CallResult> callStarted(String sessionId, long epoch, String turnId, CallId callId, int attempt,
                                 JsonObject data);

  /**
   * Journals a call's terminal outcome exactly once (J1). Answers the record journaled, which is an
   * earlier one when the call already had an outcome (then nothing is journaled).
   */
  Future<CallResult> callCompleted(String sessionId, long epoch, String turnId, CallResult record);

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

  /** {@link #callsCompleted(String, long, String, List, TurnResult, CallStart, Function)} with no next write. */
  default Future<CompletedCalls> callsCompleted(String sessionId, long epoch, String turnId, List<CallResult> records,
                                                TurnResult turnResult) {
    return callsCompleted(sessionId, epoch, turnId, records, turnResult, null, r -> null);
  }

  /** {@link #callsCompleted(String, long, String, List, TurnResult, CallStart, Function)}, results encoded here. */
  default Future<CompletedCalls> callsCompleted(String sessionId, long epoch, String turnId, List<CallResult> records,
                                                TurnResult turnResult, CallStart nextWrite) {
    return callsCompleted(sessionId, epoch, turnId, records, turnResult, nextWrite, r -> null);
  }

  /** Appends an informational step event ({@code call.attempt_failed}, ...), fenced like every write. */
  Future<Void> appendEvent(String sessionId, long epoch, String type, String turnId, String callId, JsonObject data);

  // ---------------------------------------------------------------- approvals (J5, rule 8)

  /**
   * Journals that a write waits for a decision (J5) and lists it among {@link #pendingApprovals}
   * until decided. Asking again keeps the first request and answers its status ({@code pending},
   * {@code approved}, ...); a call that already has an outcome answers {@code decided}; else
   * {@code pending}. Requests and decisions survive restarts like every step.
   */
  Future<String> approvalRequested(long epoch, ApprovalRequest request);

  /**
   * Journals a decision ({@code approved}, {@code rejected} or {@code expired}) after checking it
   * (rule 8). Not fenced: any node may decide. Answers {@code UNKNOWN_CALL} (no request),
   * {@code ALREADY_DECIDED} (journals nothing), {@code STALE} (the arguments hash is not the
   * request's; journals nothing), {@code EXPIRED} (an approval or rejection after the request
   * expired: the request is journaled expired instead) or {@code ACCEPTED}.
   */
  default Future<DecisionAnswer> approvalDecided(String sessionId, CallId callId, String argumentsHash, String status,
                                                 String approver, String reason) {
    return approvalDecided(sessionId, callId, argumentsHash, status, approver, reason, null);
  }

  /**
   * As {@link #approvalDecided(String, CallId, String, String, String, String)}; an {@code approved}
   * decision may carry {@code editedArguments}, already validated against the tool's schema, which
   * the call then runs with. The decision step records them with the hash of the arguments the
   * approver was shown ({@code originalArgumentsHash}) and who edited them ({@code editedBy}, the
   * approver), for the call's approval ({@link dev.ratchet.runtime.ApprovalRecord}) and the
   * {@code approval.decided} event; the request keeps the original arguments.
   */
  Future<DecisionAnswer> approvalDecided(String sessionId, CallId callId, String argumentsHash, String status,
                                         String approver, String reason, JsonObject editedArguments);

  // ---------------------------------------------------------------- reconciliation

  /**
   * Records a person's finding ({@code SUCCEEDED} or {@code FAILED}) for an {@code outcome_unknown}
   * call, with who made it, and journals {@code call.reconciled}. Fails with {@code INVALID_REQUEST}
   * for {@code OUTCOME_UNKNOWN}, {@code UNKNOWN_CALL} when the call has no record, {@code NOT_UNKNOWN}
   * when its outcome is known. A completed turn keeps answering its first results (J7).
   */
  Future<CallResult> reconcile(String sessionId, CallId callId, Outcome outcome, String who, String note);

  // ---------------------------------------------------------------- agent loop

  /**
   * Appends a user message to the session's conversation once per {@code messageId} and journals
   * {@code message.user} with {@code eventData}; a repeated id journals nothing and answers where the
   * first one is. Creates the session like {@link #submitTurn}, with its agent and caller rules.
   */
  Future<ConversationAppend> messageUser(String sessionId, long epoch, String agent, String callerId, String creator,
                                         String messageId, JsonObject entry, JsonObject eventData);

  /** {@link #messageUser(String, long, String, String, String, String, JsonObject, JsonObject)} without a creator. */
  default Future<ConversationAppend> messageUser(String sessionId, long epoch, String agent, String callerId,
                                                 String messageId, JsonObject entry, JsonObject eventData) {
    return messageUser(sessionId, epoch, agent, callerId, null, messageId, entry, eventData);
  }

  /** {@link #messageUser(String, long, String, String, String, String, JsonObject, JsonObject)} without caller or creator. */
  default Future<ConversationAppend> messageUser(String sessionId, long epoch, String agent, String messageId,
                                                 JsonObject entry, JsonObject eventData) {
    return messageUser(sessionId, epoch, agent, null, null, messageId, entry, eventData);
  }

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

  // ---------------------------------------------------------------- recovery index and lifecycle

  /** Sessions that may have turns in flight (indexed by a submit or a user message, until {@link #markIdle}). */
  Future<List<String>> activeSessions();

  /**
   * The sessions among {@code sessionIds} with work in flight: a turn not completed, or a round of
   * the agent loop not ended. A session of {@link #activeSessions} without either has nothing to resume.
   */
  Future<List<String>> withWorkInFlight(List<String> sessionIds);

  /** Drops a session from {@link #activeSessions}; called when it has nothing in flight. */
  Future<Void> markIdle(String sessionId);

  /** Releases the journal's connections; the journal is not used afterwards. */
  Future<Void> close();
}
