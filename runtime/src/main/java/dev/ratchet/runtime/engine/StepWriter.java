package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallEvent;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.RatchetClock;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.impl.LogIds;
import dev.ratchet.runtime.impl.StepEvents;
import dev.ratchet.runtime.journal.CallStart;
import dev.ratchet.runtime.journal.CompletedCalls;
import dev.ratchet.runtime.journal.ConversationAppend;
import dev.ratchet.runtime.journal.SessionJournal;
import dev.ratchet.runtime.journal.SubmitAnswer;
import dev.ratchet.runtime.journal.TurnSubmission;
import dev.ratchet.runtime.journal.UserMessage;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The one place a session's steps are written: the engine's turns and calls, its approvals and the
 * agent loop's conversation all go through it. Every step carries this owner's epoch (J4); a step
 * the journal cannot reach is retried for {@link EngineOptions#journalRetryMillis()}; a fencing
 * refusal marks the session fenced here, once, for every writer. Batching is the writer's too:
 * outcomes reached together share one step ({@link GroupCommit}) and a write about to be sent
 * rides, as "started", on the step before it.
 */
public final class StepWriter {

  private static final Logger LOG = LoggerFactory.getLogger(StepWriter.class);

  private final RatchetClock clock;
  private final SessionJournal journal;
  private final String sessionId;
  private final EngineOptions options;
  private final Consumer<JsonObject> events;
  private final Runnable onFenced;
  private GroupCommit commit;
  private long epoch;
  // read by the session manager's sweep from another thread
  private volatile boolean fenced;
  private volatile boolean erased;
  private boolean stopped;

  StepWriter(RatchetClock clock, SessionJournal journal, String sessionId, EngineOptions options,
             Consumer<JsonObject> events, Runnable onFenced) {
    this.clock = clock;
    this.journal = journal;
    this.sessionId = sessionId;
    this.options = options;
    this.events = events == null ? e -> { } : events;
    this.onFenced = onFenced;
  }

  public long epoch() {
    return epoch;
  }

  void batching(GroupCommit commit) {
    this.commit = commit;
  }

  void epoch(long epoch) {
    this.epoch = epoch;
  }

  public boolean isFenced() {
    return fenced;
  }

  /** Fenced or stopped: this node writes nothing more for the session. */
  boolean closed() {
    return fenced || stopped;
  }

  void stop() {
    stopped = true;
  }

  boolean stopped() {
    return stopped;
  }

  SessionJournal journal() {
    return journal;
  }

  // ------------------------------------------------------------------ the steps of a turn

  /** Journals a turn (rule 1); {@code firstWrite} rides along as started when the turn is new. */
  Future<SubmitAnswer> submitTurn(String agent, String callerId, String creator, Turn turn, String catalogue,
                                  String replyAddress, boolean index, CallStart firstWrite) {
    return journal.submitTurn(new TurnSubmission(sessionId, epoch, agent, callerId, creator, turn, catalogue,
            replyAddress, index, firstWrite))
        .recover(this::noteFencing);
  }

  /**
   * Journals that an attempt of {@code slot} is about to send (J2, J8) and moves it to started.
   * Answers the call's record when it already had an outcome (then nothing may be sent), else null.
   */
  Future<CallResult> callStarted(String turnId, CallSlot slot, int attempt, JsonObject data) {
    return durably("call_started", () -> journal.callStarted(sessionId, epoch, turnId,
        new CallStart(slot.callId, attempt, data)))
        .map(record -> {
          if (record != null) {
            slot.settled();
          } else {
            slot.move(CallEvent.ATTEMPT_STARTED);
          }
          return record;
        });
  }

  /** Takes a call's outcome for the next group commit of its turn ({@link GroupCommit}). */
  void completed(TurnRun run, CallSlot slot, CallResult record) {
    commit.add(run, slot, record);
  }

  /** A group commit: several outcomes of one turn, maybe its results, maybe the next write's start. */
  Future<CompletedCalls> callsCompleted(String turnId, List<CallResult> records, TurnResult turnResult,
                                        CallStart nextWrite, Function<CallResult, String> resultTexts) {
    return durably("calls_completed", () -> journal.callsCompleted(sessionId, epoch, turnId, records, turnResult,
        nextWrite, resultTexts));
  }

  /** Journals a turn's results before they are delivered (J7). */
  Future<TurnResult> turnCompleted(TurnResult result) {
    return durably("turn_completed", () -> journal.turnCompleted(sessionId, epoch, result));
  }

  /** Journals that an attempt failed and the next follows; a fencing refusal fails it. */
  Future<Void> attemptFailed(String turnId, CallSlot slot, JsonObject data) {
    slot.move(CallEvent.ATTEMPT_FAILED);
    return appendEvent(EventType.CALL_ATTEMPT_FAILED.wireName(), turnId, slot.callId.value(), data);
  }

  /** Journals that a call waits for a decision (J5) and moves it to awaiting approval. */
  Future<String> approvalRequested(CallSlot slot, ApprovalRequest request) {
    slot.move(CallEvent.APPROVAL_REQUESTED);
    return durably("approval_requested", () -> journal.approvalRequested(epoch, request));
  }

  /** An informational step event, fenced like every write; a fencing refusal marks the session fenced. */
  public Future<Void> appendEvent(String type, String turnId, String callId, JsonObject data) {
    return journal.appendEvent(sessionId, epoch, type, turnId, callId, data).recover(this::noteFencing);
  }

  // ------------------------------------------------------------------ the agent loop's conversation

  /** Appends a user message once per id (the agent loop's step). */
  public Future<ConversationAppend> messageUser(String agent, String callerId, String creator, String messageId,
                                                JsonObject entry, JsonObject eventData) {
    return journal.messageUser(new UserMessage(sessionId, epoch, agent, callerId, creator, messageId, entry, eventData))
        .recover(this::noteFencing);
  }

  /** Records a model response for a loop step once, before its tool calls run. */
  public Future<ConversationAppend> modelResponse(long step, String turnId, JsonObject entry, JsonObject eventData) {
    return journal.modelResponse(sessionId, epoch, step, turnId, entry, eventData).recover(this::noteFencing);
  }

  /** Ends a round once per end id. */
  public Future<ConversationAppend> roundEnded(String endId, String eventType, JsonObject entry, JsonObject eventData) {
    return journal.roundEnded(sessionId, epoch, endId, eventType, entry, eventData).recover(this::noteFencing);
  }

  // ------------------------------------------------------------------ retries and fencing

  /** Runs a journal step, retrying while the journal is unreachable; a fencing refusal stops the session (J4). */
  <T> Future<T> durably(String step, Supplier<Future<T>> op) {
    Promise<T> promise = Promise.promise();
    long giveUpAt = clock.millis() + options.journalRetryMillis();
    durably(step, op, promise, giveUpAt, 50);
    return promise.future();
  }

  private <T> void durably(String step, Supplier<Future<T>> op, Promise<T> promise, long giveUpAt, long delay) {
    if (fenced) {
      promise.tryFail(notOwner());
      return;
    }
    op.get().onComplete(ar -> {
      if (ar.succeeded()) {
        promise.tryComplete(ar.result());
        return;
      }
      Throwable err = ar.cause();
      if (isFencing(err)) {
        markFenced(err);
        promise.tryFail(err);
      } else if (isUnavailable(err) && clock.millis() < giveUpAt && !stopped) {
        LogIds.session(sessionId).warn(LOG, "journal step {} failed ({}), retrying in {} ms", step, err.getMessage(),
            delay);
        clock.setTimer(delay, t -> durably(step, op, promise, giveUpAt, Math.min(delay * 2, 2_000)));
      } else {
        promise.tryFail(err);
      }
    });
  }

  <T> Future<T> noteFencing(Throwable err) {
    if (isFencing(err)) {
      markFenced(err);
    }
    return Future.failedFuture(err);
  }

  void markFenced() {
    markFenced(null);
  }

  private void markFenced(Throwable err) {
    if (!fenced) {
      erased = RatchetException.is(err, ErrorCode.SESSION_ERASED);
      fenced = true;
      if (erased) {
        LogIds.session(sessionId).warn(LOG, "an operator erased it; this node stops running it");
      } else {
        LogIds.session(sessionId).warn(LOG, "another node took over (epoch {} is stale); this node stops running it",
            epoch);
      }
      onFenced.run();
      emit(EventType.SESSION_FENCED.wireName(), null, null, new JsonObject().put("epoch", epoch));
    }
  }

  /** Whether {@code err} is the journal's refusal of a stale epoch (J4), or of a session an operator erased. */
  public static boolean isFencing(Throwable err) {
    return RatchetException.is(err, ErrorCode.FENCED) || RatchetException.is(err, ErrorCode.SESSION_ERASED);
  }

  private static boolean isUnavailable(Throwable err) {
    return RatchetException.is(err, ErrorCode.JOURNAL_UNAVAILABLE);
  }

  /** The error of a step this node may no longer write. */
  public RatchetException notOwner() {
    if (erased) {
      return new RatchetException(ErrorCode.SESSION_ERASED, "an operator erased session " + sessionId
          + "; start a new session");
    }
    return new RatchetException(ErrorCode.FENCED, "session " + sessionId + " is no longer run by this node");
  }

  // ------------------------------------------------------------------ events

  /** Hands a step event to the session's listener, after its step was journaled. */
  public void emit(String type, String turnId, String callId, JsonObject data) {
    if (wants(type)) {
      StepEvents.emit(events, clock.millis(), sessionId, type, turnId, callId, data);
    }
  }

  /** As {@link #emit(String, String, String, JsonObject)}, with data built only when the event is wanted. */
  public void emit(String type, String turnId, String callId, Supplier<JsonObject> data) {
    if (wants(type)) {
      StepEvents.emit(events, clock.millis(), sessionId, type, turnId, callId, data.get());
    }
  }

  /** Whether the session's listener would hear an event of {@code type} now ({@link StepEventListener}). */
  public boolean wants(String type) {
    return !(events instanceof StepEventListener listener) || listener.wants(type);
  }
}
