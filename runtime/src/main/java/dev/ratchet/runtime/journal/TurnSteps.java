package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.TurnResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.function.Function;

/**
 * The journal port's steps of turns and calls (rule 1, J1, J2, J7, J8), part of
 * {@link SessionJournal}, whose contracts (fencing, atomic steps, errors) hold for each.
 */
public interface TurnSteps {

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
}
