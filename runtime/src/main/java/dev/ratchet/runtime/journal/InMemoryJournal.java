package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.TurnResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.function.Function;

import static dev.ratchet.runtime.journal.MemoryStore.now;

/**
 * A journal in this process's memory, with the Redis journal's contracts (fencing, exactly-once
 * outcomes, idempotent submits, approvals, the same events): for engine tests that check rules
 * rather than Redis, and for applications' own tests. Nothing survives the process, so it gives
 * none of the durability a deployment needs. Each step runs whole under the store's lock, and its
 * answer arrives on the caller's Vert.x context afterwards, as a Redis reply would. Like
 * {@link RedisJournal} it offers the optional ports by name ({@link #queries()},
 * {@link #retention()}, {@link #diagnostics()}); its parts: the store in {@link MemoryStore}, the
 * steps of turns and calls in {@link MemoryTurnSteps}, of decisions in {@link MemoryDecisionSteps},
 * of the agent loop in {@link MemoryLoopSteps}, reads in {@link MemoryQueries}.
 */
public final class InMemoryJournal implements SessionJournal {

  private final MemoryStore store;
  private final Vertx vertx;
  private final MemoryQueries queries;
  private final MemoryTurnSteps turns;
  private final MemoryDecisionSteps decisions;
  private final MemoryLoopSteps loop;
  private final MemoryRetentionSteps retention;
  private final MemoryDiagnostics diagnostics;

  private InMemoryJournal(Vertx vertx, MemoryStore store) {
    this.vertx = vertx;
    this.store = store;
    this.queries = new MemoryQueries(store, vertx);
    this.turns = new MemoryTurnSteps(store, vertx);
    this.decisions = new MemoryDecisionSteps(store, vertx);
    this.loop = new MemoryLoopSteps(store, vertx);
    this.retention = new MemoryRetentionSteps(store, vertx);
    this.diagnostics = new MemoryDiagnostics(store, vertx);
  }

  /**
   * An empty journal. Answers arrive on the caller's context; for callers outside any context, on a
   * context of {@code vertx}. One journal may serve engines of several Vert.x instances, as one
   * Redis serves several nodes.
   */
  public static InMemoryJournal create(Vertx vertx) {
    return new InMemoryJournal(vertx, new MemoryStore());
  }

  /**
   * A journal over the memory of {@code other}, as a second client of the same Redis: each sees what
   * the other journaled, and it keeps doing so after {@code other} is closed (a restart, in a test).
   */
  public static InMemoryJournal sharing(Vertx vertx, InMemoryJournal other) {
    return new InMemoryJournal(vertx, other.store);
  }

  // ---------------------------------------------------------------- the optional ports

  /** The journal's read side. */
  public JournalQueries queries() {
    return queries;
  }

  /** Retention, erasure and import. */
  public JournalRetention retention() {
    return retention;
  }

  /** The journal's health: reachable while the process runs. */
  public JournalDiagnostics diagnostics() {
    return diagnostics;
  }

  // ---------------------------------------------------------------- ownership and recovery

  @Override
  public Future<ClaimedSession> claim(String sessionId, String owner) {
    return store.step(vertx, () -> {
      store.retention.notForgotten(sessionId);
      MemorySession s = store.sessions.computeIfAbsent(sessionId, id -> new MemorySession());
      s.epoch++;
      s.owner = owner;
      s.append(EventType.SESSION_CLAIMED.wireName(), null, null, now(),
          new JsonObject().put("owner", owner).put("epoch", s.epoch).encode());
      return new ClaimedSession(s.epoch, s.caller, MemoryReads.inflight(sessionId, s));
    });
  }

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

  // ---------------------------------------------------------------- turns and calls (MemoryTurnSteps)

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

  // ---------------------------------------------------------------- decisions (MemoryDecisionSteps)

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

  // ---------------------------------------------------------------- agent loop (MemoryLoopSteps)

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

  @Override
  public Future<Void> markIdle(String sessionId) {
    return loop.markIdle(sessionId);
  }

  /** Nothing to release; the memory stays with every journal that shares it. */
  @Override
  public Future<Void> close() {
    return Future.succeededFuture();
  }
}
