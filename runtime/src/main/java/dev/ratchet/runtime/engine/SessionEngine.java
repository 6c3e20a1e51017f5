package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.Accepted;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CatalogVersions;
import dev.ratchet.runtime.Ids;
import dev.ratchet.runtime.RatchetClock;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.impl.Contexts;
import dev.ratchet.runtime.impl.LogIds;
import dev.ratchet.runtime.journal.DecisionAnswer;
import dev.ratchet.runtime.journal.InflightTurn;
import dev.ratchet.runtime.journal.SessionJournal;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Runs one session's turns under the rules of docs/ARCHITECTURE.md: validate everything first, reads
 * concurrently, writes one at a time in the model's order through the session's write queue,
 * approvals when a write's turn comes, skipping after a bad write, and every step journaled
 * under this owner's fencing epoch. Each call moves through {@link CallTransitions}; every step is
 * written by the session's {@link StepWriter}. All state is touched on one Vert.x context only.
 *
 * <p>The parts: {@link Submission} takes turns in, {@link TurnRunner} runs them, {@link WriteQueue}
 * orders writes, {@link Approvals} asks and waits, {@link Attempts} calls tools, {@link GroupCommit}
 * batches outcomes.
 */
public final class SessionEngine {

  private static final Logger LOG = LoggerFactory.getLogger(SessionEngine.class);

  final Vertx vertx;
  final RatchetClock clock;
  final Context context;
  final String sessionId;
  final CatalogVersions catalogs;
  final EngineOptions options;
  final StepWriter writer;
  final Map<String, TurnRun> running = new LinkedHashMap<>();
  final Submission submission;
  final TurnRunner runner;
  final WriteQueue queue;
  final Approvals approvals;
  final Attempts attempts;
  /** Turns journaled here for the session's next owner and not run here. */
  int held;
  /** The session's caller: fixed once the session exists, so read at start and kept for every call. */
  private String callerId;
  private TurnReplies replies = TurnReplies.NONE;

  public SessionEngine(Vertx vertx, SessionJournal journal, String sessionId, ToolCatalog catalog,
                       EngineOptions options, Consumer<JsonObject> events) {
    this(vertx, journal, sessionId, CatalogVersions.fixed(catalog), options, events);
  }

  /** An engine for one catalogue, on {@code clock}. */
  public SessionEngine(Vertx vertx, SessionJournal journal, String sessionId, ToolCatalog catalog,
                       EngineOptions options, Consumer<JsonObject> events, RatchetClock clock) {
    this(vertx, journal, sessionId, CatalogVersions.fixed(catalog), options, events, clock);
  }

  /**
   * An engine whose new turns are validated against the agent's current catalogue, and whose
   * resumed turns against the version they were journaled with when it is still known.
   */
  public SessionEngine(Vertx vertx, SessionJournal journal, String sessionId, CatalogVersions catalogs,
                       EngineOptions options, Consumer<JsonObject> events) {
    this(vertx, journal, sessionId, catalogs, options, events, RatchetClock.system(vertx));
  }

  /**
   * As {@link #SessionEngine(Vertx, SessionJournal, String, CatalogVersions, EngineOptions, Consumer)}:
   * every time the engine reads (approval expiry, call durations, the times in its steps and
   * events) comes from {@code clock}, and every timer it waits on (approval time-outs, retry
   * back-offs, call time-outs) is set on it (docs/ARCHITECTURE.md, "Time").
   */
  public SessionEngine(Vertx vertx, SessionJournal journal, String sessionId, CatalogVersions catalogs,
                       EngineOptions options, Consumer<JsonObject> events, RatchetClock clock) {
    this.vertx = vertx;
    this.clock = clock;
    this.context = vertx.getOrCreateContext();
    this.sessionId = sessionId;
    this.catalogs = catalogs;
    this.options = options;
    this.writer = new StepWriter(clock, journal, sessionId, options, events, this::fencedHere);
    this.submission = new Submission(this);
    this.runner = new TurnRunner(this);
    this.queue = new WriteQueue(this);
    this.approvals = new Approvals(this);
    this.attempts = new Attempts(this);
    this.writer.batching(new GroupCommit(this));
  }

  /**
   * Journals a person's decision for a waiting call (rule 8), checked by the journal: the one way a
   * decision is written, whichever node takes it. The node running the session is told separately.
   */
  public static Future<DecisionAnswer> journalDecision(SessionJournal journal, ApprovalDecision decision) {
    return Approvals.decide(journal, decision.sessionId(), decision);
  }

  /**
   * As {@link #journalDecision(SessionJournal, ApprovalDecision)}, taking a decision with edited
   * arguments too: the tool, looked up in its agent's catalogue ({@code catalogs} by agent name), must
   * allow edits ({@code FORBIDDEN}) and its input schema must accept them ({@code INVALID_REQUEST}).
   */
  public static Future<DecisionAnswer> journalDecision(SessionJournal journal,
                                                       Function<String, ToolCatalog> catalogs,
                                                       ApprovalDecision decision) {
    return Approvals.decide(journal, catalogs, decision.sessionId(), decision);
  }

  public String sessionId() {
    return sessionId;
  }

  /** Where the outcomes of turns submitted with a reply address go; set before {@link #start}. */
  public SessionEngine replies(TurnReplies replies) {
    this.replies = replies;
    return this;
  }

  /**
   * Answers {@code replyAddress} (null: none) with the outcome of the turn running here once it
   * ends, once per address; a run that ends because this node no longer drives the session is not
   * answered (the next owner answers the address journaled with the turn).
   */
  void answerWhenDone(String turnId, String replyAddress) {
    TurnRun run = replyAddress == null ? null : running.get(turnId);
    if (run == null || !run.addReplyAddress(replyAddress)) {
      return;
    }
    run.result.future().onComplete(ar -> {
      if (ar.succeeded() || !StepWriter.isFencing(ar.cause()) && !RatchetException.is(ar.cause(), ErrorCode.STOPPED)) {
        replies.answer(replyAddress, turnId, ar);
      }
    });
  }

  /** Answers {@code replyAddress} (null: none) with the results of a turn that completed before. */
  void answerCompleted(String turnId, String replyAddress, TurnResult results) {
    if (replyAddress != null) {
      replies.answer(replyAddress, turnId, Future.succeededFuture(results));
    }
  }

  /** The catalogue a turn submitted now is validated against. */
  public ToolCatalog catalog() {
    return catalogs.current();
  }

  /** Where this engine reads the time and sets its timers; the session's agent loop uses it too. */
  public RatchetClock clock() {
    return clock;
  }

  /** The limits and timings this engine runs under. */
  public EngineOptions options() {
    return options;
  }

  public long epoch() {
    return writer.epoch();
  }

  public boolean isFenced() {
    return writer.isFenced();
  }

  /** The writer of this session's steps, which the session's agent loop writes through too. */
  public StepWriter steps() {
    return writer;
  }

  /** The resource id of the session's caller, or null when it has none (or the session is not created yet). */
  public String callerId() {
    return callerId;
  }

  /**
   * Notes the caller the journal accepted for this session in a step not made by the engine (a
   * user message of the agent loop). Only ever fills in a caller the engine did not know yet.
   */
  public void callerAccepted(String callerId) {
    if (this.callerId == null && callerId != null) {
      this.callerId = callerId;
    }
  }

  /** True when no turn is running or left for the next owner: the session may be passivated. */
  public boolean isIdle() {
    return running.isEmpty() && held == 0;
  }

  /**
   * True when nothing of the session is in flight: every call of every running turn has its
   * outcome journaled, waits for a person's decision (its request journaled), or is a write queued
   * behind such a call; and no turn is journaling its results. Another owner may then take the
   * session over without a call ending {@code outcome_unknown}: docs/ARCHITECTURE.md, "More than one node".
   */
  public boolean isParked() {
    boolean anyWaiting = false;
    for (TurnRun run : running.values()) {
      if (!run.unjournaled.isEmpty() || run.flushScheduled) {
        return false;
      }
      boolean allDone = true;
      for (CallSlot slot : run.slots) {
        if (slot.done.future().isComplete()) {
          continue;
        }
        allDone = false;
        if (approvals.waiting(slot.callId)) {
          anyWaiting = true;
        } else if (!slot.isWrite() || slot.dequeued) {
          return false;
        }
      }
      if (allDone) {
        return false;
      }
    }
    return running.isEmpty() || anyWaiting;
  }

  /** Takes ownership of the session and resumes every turn the journal holds in flight. */
  public Future<Void> start(String owner) {
    RatchetException badId = Ids.problem("sessionId", sessionId);
    if (badId != null) {
      return Future.failedFuture(badId);
    }
    return onContext(() -> writer.journal().claim(sessionId, owner).map(claimed -> {
      writer.epoch(claimed.epoch());
      callerId = claimed.caller();
      for (InflightTurn t : claimed.inflight()) {
        // debug: a restart resumes thousands of turns at once, and the runtime logs how many sessions it resumed
        LogIds.turn(sessionId, t.turn().turnId()).debug(LOG, "resuming the turn ({} calls)", t.turn().calls().size());
        submission.resume(t, t.calls());
        answerWhenDone(t.turn().turnId(), t.replyAddress());
      }
      return null;
    }));
  }

  /** Stops taking work; in-flight turns stay in the journal and resume on the next start. */
  public Future<Void> stop() {
    return onContext(() -> {
      writer.stop();
      approvals.failAll(new RatchetException(ErrorCode.STOPPED, "session stopped"));
      return Future.succeededFuture();
    });
  }

  /**
   * Submits a turn (rule 1): a turn id already journaled is not run again and answers with its
   * results. The future completes when every call has an outcome and the results are journaled.
   */
  public Future<TurnResult> submit(Turn turn) {
    return accept(turn).compose(Accepted::result);
  }

  /** As {@link #submit(Turn)}, for the session of {@code callerId}; see {@link #accept(Turn, String)}. */
  public Future<TurnResult> submit(Turn turn, String callerId) {
    return accept(turn, callerId).compose(Accepted::result);
  }

  /**
   * Journals a turn and answers, once it is journaled, with the future of its results. Lets a caller
   * acknowledge a submission before the turn (which may wait for approvals) completes.
   */
  public Future<Accepted<TurnResult>> accept(Turn turn) {
    return accept(turn, null);
  }

  /**
   * As {@link #accept(Turn)}, for the session of {@code callerId}: a new session is created with
   * that caller; a session that has another caller, or none, refuses the turn with
   * {@code CALLER_MISMATCH} and journals nothing. Null accepts the session's own caller (trusted callers only).
   * A turn over the engine's limits ({@link TurnLimits}) is refused whole and journals nothing.
   */
  public Future<Accepted<TurnResult>> accept(Turn turn, String callerId) {
    return accept(turn, callerId, null);
  }

  /**
   * As {@link #accept(Turn, String)}; a session this turn creates records {@code creator}, the
   * name of the user or token that submitted it (null: none), for the four-eyes rule.
   */
  public Future<Accepted<TurnResult>> accept(Turn turn, String callerId, String creator) {
    return accept(turn, callerId, creator, null);
  }

  /**
   * As {@link #accept(Turn, String, String)}; {@code replyAddress} (null: none) is journaled with a
   * new turn, and this node answers it through {@link #replies} when the turn ends here (or at once
   * for a turn that completed before), as the node that resumes the turn after a takeover does.
   */
  public Future<Accepted<TurnResult>> accept(Turn turn, String callerId, String creator, String replyAddress) {
    RatchetException overLimit = TurnLimits.problem(turn, options);
    if (overLimit != null) {
      return Future.failedFuture(overLimit);
    }
    return onContext(() -> submission.accept(turn, callerId, creator, replyAddress, true).map(Accepted::new));
  }

  /**
   * Journals a turn without running it here: the session's next owner resumes it with the others
   * in flight. A member leaving the cluster takes turns this way while its running turns park. The
   * future completes once the turn is journaled; its result completes only for a turn that was
   * already running here.
   */
  public Future<Accepted<TurnResult>> acceptForNextOwner(Turn turn, String callerId, String creator) {
    return acceptForNextOwner(turn, callerId, creator, null);
  }

  /** As {@link #acceptForNextOwner(Turn, String, String)}, journaling {@code replyAddress} for the next owner. */
  public Future<Accepted<TurnResult>> acceptForNextOwner(Turn turn, String callerId, String creator,
                                                       String replyAddress) {
    RatchetException overLimit = TurnLimits.problem(turn, options);
    if (overLimit != null) {
      return Future.failedFuture(overLimit);
    }
    return onContext(() -> submission.accept(turn, callerId, creator, replyAddress, false).map(Accepted::new));
  }

  /**
   * Takes a person's decision for a waiting write (rule 8): refused unless it names a pending call
   * and the hash of the arguments that call was shown.
   */
  public Future<DecisionAnswer> decide(ApprovalDecision decision) {
    return onContext(() -> Approvals.decide(writer.journal(),
        agent -> catalogs.agent().equals(agent) ? catalogs.current() : null, sessionId, decision)
        .compose(answer -> answer == DecisionAnswer.ACCEPTED
            ? approvalChanged(decision.callId()).map(answer) : Future.succeededFuture(answer)));
  }

  /** Wakes a write waiting for approval after its decision was journaled, possibly by another node. */
  public Future<Void> approvalChanged(CallId callId) {
    return onContext(() -> approvals.changed(callId));
  }

  private void fencedHere() {
    approvals.failAll(writer.notOwner());
  }

  <T> Future<T> onContext(Supplier<Future<T>> action) {
    return Contexts.onContext(context, action);
  }
}
