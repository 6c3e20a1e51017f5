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
 * The engine's port answered by one object per role, as both stores split it: the recovery reads by
 * the store's read side, the steps of turns and calls, of decisions and of the agent loop each by
 * their own ({@link TurnSteps}, {@link DecisionSteps}, {@link LoopSteps}). A store adds how a
 * session is claimed and marked idle, and how the journal closes.
 */
abstract class JournalRoles implements SessionJournal {

  private final JournalQueries queries;
  private final TurnSteps turns;
  private final DecisionSteps decisions;
  private final LoopSteps loop;

  JournalRoles(JournalQueries queries, TurnSteps turns, DecisionSteps decisions, LoopSteps loop) {
    this.queries = queries;
    this.turns = turns;
    this.decisions = decisions;
    this.loop = loop;
  }

  // ---------------------------------------------------------------- recovery reads

  @Override
  public Future<List<InflightTurn>> inflightTurns(String sessionId) {
    return queries.inflightTurns(sessionId);
  }

  @Override
  public Future<TurnResult> turnResult(String sessionId, String turnId) {
    return queries.turnResult(sessionId, turnId);
  }

  @Override
  public Future<CallState> callState(String sessionId, CallId callId) {
    return queries.callState(sessionId, callId);
  }

  @Override
  public Future<ApprovalRequest> approvalRequest(String sessionId, CallId callId) {
    return queries.approvalRequest(sessionId, callId);
  }

  @Override
  public Future<List<JsonObject>> conversation(String sessionId) {
    return queries.conversation(sessionId);
  }

  // ---------------------------------------------------------------- turns and calls

  @Override
  public Future<SubmitAnswer> submitTurn(TurnSubmission submission) {
    return turns.submitTurn(submission);
  }

  @Override
  public Future<TurnResult> turnCompleted(String sessionId, long epoch, TurnResult result) {
    return turns.turnCompleted(sessionId, epoch, result);
  }

  @Override
  public Future<CallResult> callStarted(String sessionId, long epoch, String turnId, CallStart start) {
    return turns.callStarted(sessionId, epoch, turnId, start);
  }

  @Override
  public Future<CompletedCalls> callsCompleted(String sessionId, long epoch, String turnId, List<CallResult> records,
                                               TurnResult turnResult, CallStart nextWrite,
                                               Function<CallResult, String> resultTexts) {
    return turns.callsCompleted(sessionId, epoch, turnId, records, turnResult, nextWrite, resultTexts);
  }

  @Override
  public Future<Void> appendEvent(String sessionId, long epoch, String type, String turnId, String callId,
                                  JsonObject data) {
    return turns.appendEvent(sessionId, epoch, type, turnId, callId, data);
  }

  // ---------------------------------------------------------------- decisions

  @Override
  public Future<String> approvalRequested(long epoch, ApprovalRequest request) {
    return decisions.approvalRequested(epoch, request);
  }

  @Override
  public Future<DecisionAnswer> approvalDecided(String sessionId, CallId callId, Verdict verdict) {
    return decisions.approvalDecided(sessionId, callId, verdict);
  }

  @Override
  public Future<CallResult> reconcile(String sessionId, CallId callId, Outcome outcome, String who, String note) {
    return decisions.reconcile(sessionId, callId, outcome, who, note);
  }

  // ---------------------------------------------------------------- agent loop

  @Override
  public Future<ConversationAppend> messageUser(UserMessage message) {
    return loop.messageUser(message);
  }

  @Override
  public Future<ConversationAppend> modelResponse(String sessionId, long epoch, long step, String turnId,
                                                  JsonObject entry, JsonObject eventData) {
    return loop.modelResponse(sessionId, epoch, step, turnId, entry, eventData);
  }

  @Override
  public Future<ConversationAppend> roundEnded(String sessionId, long epoch, String endId, String eventType,
                                               JsonObject entry, JsonObject eventData) {
    return loop.roundEnded(sessionId, epoch, endId, eventType, entry, eventData);
  }

}
