package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.ApprovalRecord;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.IdempotencyKey;
import dev.ratchet.runtime.Ids;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.Redaction;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.CatalogVersions;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolNotSentException;
import dev.ratchet.runtime.ToolResult;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.impl.CanonicalJson;
import dev.ratchet.runtime.impl.Contexts;
import dev.ratchet.runtime.impl.JsonText;
import dev.ratchet.runtime.impl.StepEvents;
import dev.ratchet.runtime.journal.CallStart;
import dev.ratchet.runtime.journal.CallState;
import dev.ratchet.runtime.journal.DecisionAnswer;
import dev.ratchet.runtime.journal.InflightTurn;
import dev.ratchet.runtime.journal.SessionJournal;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Runs one session's turns under the rules of docs/ARCHITECTURE.md: validate everything first, reads
 * concurrently, writes one at a time in the model's order through the session's write queue,
 * approvals when a write's turn comes, skipping after a bad write, and every step journaled
 * under this owner's fencing epoch. All state is touched on one Vert.x context only.
 */
public final class SessionEngine {

  private static final Logger LOG = LoggerFactory.getLogger(SessionEngine.class);
  private static final long INDEX_REFRESH_MILLIS = 10_000;

  private final Vertx vertx;
  private final Context context;
  private final SessionJournal journal;
  private final String sessionId;
  private final CatalogVersions catalogs;
  private final EngineOptions options;
  private final Consumer<JsonObject> events;

  private final Map<String, TurnRun> running = new LinkedHashMap<>();
  private final Map<String, Promise<ApprovalRecord>> approvalWaiters = new HashMap<>();
  private static final Future<Void> IDLE = Future.succeededFuture();

  private Future<Void> writeQueue = IDLE;
  /** Submissions journaling now; while any is, the write queue may not stay free for a new turn's first write. */
  private int submitting;
  /** Turns whose submission (carrying their first write's start) failed without an answer: turn id to call id. */
  private final Map<String, String> startsNeverSent = new HashMap<>();
  /** When this owner last wrote the session into the recovery and recent indexes. */
  private long indexedAt = -1;
  private long epoch;
  /** The session's caller: fixed once the session exists, so read at start and kept for every call. */
  private String callerId;
  // read by the session manager's sweep from another thread
  private volatile boolean fenced;
  private boolean stopped;

  public SessionEngine(Vertx vertx, SessionJournal journal, String sessionId, ToolCatalog catalog,
                       EngineOptions options, Consumer<JsonObject> events) {
    this(vertx, journal, sessionId, CatalogVersions.fixed(catalog), options, events);
  }

  /**
   * An engine whose new turns are validated against the agent's current catalogue, and whose
   * resumed turns against the version they were journaled with when it is still known.
   */
  public SessionEngine(Vertx vertx, SessionJournal journal, String sessionId, CatalogVersions catalogs,
                       EngineOptions options, Consumer<JsonObject> events) {
    this.vertx = vertx;
    this.context = vertx.getOrCreateContext();
    this.journal = journal;
    this.sessionId = sessionId;
    this.catalogs = catalogs;
    this.options = options;
    this.events = events == null ? e -> { } : events;
  }

  public String sessionId() {
    return sessionId;
  }

  /** The catalogue a turn submitted now is validated against. */
  public ToolCatalog catalog() {
    return catalogs.current();
  }

  /** The limits and timings this engine runs under. */
  public EngineOptions options() {
    return options;
  }

  public long epoch() {
    return epoch;
  }

  public boolean isFenced() {
    return fenced;
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

  /** True when no turn is running: the session may be passivated. */
  public boolean isIdle() {
    return running.isEmpty();
  }

  /** Takes ownership of the session and resumes every turn the journal holds in flight. */
  public Future<Void> start(String owner) {
    RatchetException badId = Ids.problem("sessionId", sessionId);
    if (badId != null) {
      return Future.failedFuture(badId);
    }
    return onContext(() -> journal.claimAndLoad(sessionId, owner).map(claimed -> {
      epoch = claimed.epoch();
      callerId = claimed.caller();
      for (InflightTurn t : claimed.inflight()) {
        // debug: a restart resumes thousands of turns at once, and the runtime logs how many sessions it resumed
        LOG.debug("session {}: resuming turn {} ({} calls)", sessionId, t.turn().turnId(), t.turn().calls().size());
        execute(t, t.calls());
      }
      return null;
    }));
  }

  /** Stops taking work; in-flight turns stay in the journal and resume on the next start. */
  public Future<Void> stop() {
    return onContext(() -> {
      stopped = true;
      approvalWaiters.values().forEach(p -> p.tryFail(new RatchetException("STOPPED", "session stopped")));
      return Future.succeededFuture();
    });
  }

  /**
   * Submits a turn (rule 1): a turn id already journaled is not run again and answers with its
   * results. The future completes when every call has an outcome and the results are journaled.
   */
  public Future<TurnResult> submit(Turn turn) {
    return accept(turn).compose(result -> result);
  }

  /** As {@link #submit(Turn)}, for the session of {@code callerId}; see {@link #accept(Turn, String)}. */
  public Future<TurnResult> submit(Turn turn, String callerId) {
    return accept(turn, callerId).compose(result -> result);
  }

  /**
   * Journals a turn and answers, once it is journaled, the future of its results. Lets a caller
   * acknowledge a submission before the turn (which may wait for approvals) completes.
   */
  public Future<Future<TurnResult>> accept(Turn turn) {
    return accept(turn, null);
  }

  /**
   * As {@link #accept(Turn)}, for the session of {@code callerId}: a new session is created with
   * that caller; a session that has another caller, or none, refuses the turn with
   * {@code CALLER_MISMATCH} and journals nothing. Null accepts the session's own caller (trusted callers only).
   * A turn over the engine's limits ({@link TurnLimits}) is refused whole and journals nothing.
   */
  public Future<Future<TurnResult>> accept(Turn turn, String callerId) {
    return accept(turn, callerId, null);
  }

  /**
   * As {@link #accept(Turn, String)}; a session this turn creates records {@code creator}, the
   * name of the user or token that submitted it (null: none), for the four-eyes rule.
   */
  public Future<Future<TurnResult>> accept(Turn turn, String callerId, String creator) {
    RatchetException overLimit = TurnLimits.problem(turn, options);
    if (overLimit != null) {
      return Future.failedFuture(overLimit);
    }
    return onContext(() -> {
      TurnRun run = running.get(turn.turnId());
      if (run != null && callerId != null && !callerId.equals(this.callerId)) {
        // a running turn proves the session exists, and its caller is known here
        return Future.failedFuture(new RatchetException("CALLER_MISMATCH", "session " + sessionId
            + (this.callerId == null ? " was created without a caller; its caller cannot be set later"
            : " belongs to another caller")));
      }
      if (run != null) {
        return sameCalls(run.turn, turn) ? Future.succeededFuture(run.result.future())
            : Future.failedFuture(turnIdReused(turn));
      }
      if (fenced || stopped) {
        return Future.failedFuture(notOwner());
      }
      ToolCatalog catalog = catalogs.current();
      List<CallSlot> slots = slots(turn, catalog, Map.of());
      CallSlot first = firstWriteToStartAtOnce(slots);
      long now = System.currentTimeMillis();
      // the session stays in the recovery index until it is passivated, so only the recent-sessions
      // order needs refreshing; doing it at most every ten seconds spares two commands per turn when
      // thousands of sessions each take seconds per turn
      boolean index = indexedAt < 0 || now - indexedAt >= INDEX_REFRESH_MILLIS;
      CallStart start = first == null ? null : new CallStart(first.callId, 1, first.startData(1));
      submitting++;
      return journal.submitTurn(sessionId, epoch, catalogs.agent(), callerId, creator, turn, catalog.version(), index, start).onComplete(ar -> {
        submitting--;
        if (ar.succeeded() && index) {
          indexedAt = now;
        }
        if (ar.failed() && start != null && !isFencing(ar.cause())) {
          // the answer was lost, so the step may have landed: the write it started was never sent
          startsNeverSent.put(turn.turnId(), start.callId().value());
        }
      }).<Future<TurnResult>>compose(answer -> {
        callerAccepted(callerId);
        switch (answer.status()) {
          case COMPLETED:
            return Future.succeededFuture(Future.succeededFuture(answer.results()));
          case CONFLICT:
            return Future.failedFuture(turnIdReused(turn));
          case RUNNING: {
            TurnRun again = running.get(turn.turnId());
            if (again != null) {
              return Future.succeededFuture(again.result.future());
            }
            return journal.inflightTurns(sessionId).map(list -> {
              TurnRun meanwhile = running.get(turn.turnId());
              if (meanwhile != null) {
                return meanwhile.result.future();
              }
              for (InflightTurn t : list) {
                if (t.turn().turnId().equals(turn.turnId())) {
                  return execute(t, withoutStartsNeverSent(t));
                }
              }
              return journal.turnResult(sessionId, turn.turnId());
            });
          }
          default:
            startsNeverSent.remove(turn.turnId());
            emit("turn.submitted", turn.turnId(), null, turn.toJson().put(Turn.CATALOGUE, catalog.version()));
            if (answer.writeStarted()) {
              first.startJournaled = start.data();
            }
            return Future.succeededFuture(execute(turn, slots, false));
        }
      }).recover(this::noteFencing);
    });
  }

  /**
   * A new turn's first write, when it would be sent as soon as the turn is journaled: valid, asking
   * for no approval, and first in an idle write queue. Its "started" step then rides with the turn's.
   */
  /**
   * A turn's journaled call states, except that a write this owner journaled as started along with
   * a submission whose answer it never got is known not to have been sent: this owner never ran
   * the turn, and no other owner can have, since the turn was new at that submission.
   */
  private Map<String, CallState> withoutStartsNeverSent(InflightTurn t) {
    String callId = startsNeverSent.remove(t.turn().turnId());
    CallState state = callId == null ? null : t.calls().get(callId);
    if (state == null || state.isDone()) {
      return t.calls();
    }
    Map<String, CallState> calls = new LinkedHashMap<>(t.calls());
    calls.put(callId, CallState.fresh(callId));
    return calls;
  }

  private CallSlot firstWriteToStartAtOnce(List<CallSlot> slots) {
    if (!writeQueue.isComplete() || !running.isEmpty() || submitting > 0) {
      return null;
    }
    return startsAtOnce(nextWrite(slots, -1));
  }

  /** The first write of the turn after the call at {@code index}: the next one its write queue runs. */
  private static CallSlot nextWrite(List<CallSlot> slots, int index) {
    for (CallSlot slot : slots) {
      if (slot.index > index && slot.isWrite()) {
        return slot;
      }
    }
    return null;
  }

  /** The slot itself when it would be sent as soon as its turn in the queue comes, else null. */
  private static CallSlot startsAtOnce(CallSlot slot) {
    return slot != null && slot.problem == null && !slot.prior.isDone() && !slot.prior.wasStarted()
        && slot.prior.approval() == null && slot.askReason() == null && !announcesSending(slot) ? slot : null;
  }

  private static boolean sameCalls(Turn a, Turn b) {
    return CanonicalJson.encode(a.toJson()).equals(CanonicalJson.encode(b.toJson()));
  }

  private static RatchetException turnIdReused(Turn turn) {
    return new RatchetException("TURN_ID_REUSED", "turn '" + turn.turnId()
        + "' was already submitted with different calls; use a new turn id for a new model response");
  }

  /**
   * Takes a person's decision for a waiting write (rule 8): refused unless it names a pending call
   * and the hash of the arguments that call was shown.
   */
  public Future<DecisionAnswer> decide(ApprovalDecision decision) {
    return onContext(() -> journal.approvalDecided(sessionId, decision.callId(), decision.argumentsHash(),
        decision.approved() ? "approved" : "rejected", decision.approver(), decision.reason())
        .compose(answer -> answer == DecisionAnswer.ACCEPTED
            ? approvalChanged(decision.callId()).map(answer) : Future.succeededFuture(answer)));
  }

  /** Wakes a write waiting for approval after its decision was journaled, possibly by another node. */
  public Future<Void> approvalChanged(CallId callId) {
    return onContext(() -> {
      Promise<ApprovalRecord> waiter = approvalWaiters.get(callId.value());
      if (waiter == null) {
        return Future.succeededFuture();
      }
      return journal.callState(sessionId, callId).map(state -> {
        if (state.approval() != null && !"pending".equals(state.approval().status())) {
          approvalWaiters.remove(callId.value());
          waiter.tryComplete(state.approval());
          emit("approval.decided", null, callId.value(), state.approval().toJson());
        }
        return null;
      });
    });
  }

  // ------------------------------------------------------------------ turn execution

  private Future<TurnResult> execute(InflightTurn t, Map<String, CallState> priors) {
    return execute(t.turn(), slots(t.turn(), catalogOf(t), priors), !priors.isEmpty());
  }

  /**
   * The catalogue a resumed turn was validated against; after a restart that version may be
   * unknown, and the turn's calls without an outcome are validated again against the current one.
   */
  private ToolCatalog catalogOf(InflightTurn t) {
    ToolCatalog current = catalogs.current();
    if (t.catalogue() == null || t.catalogue().equals(current.version())) {
      return current;
    }
    ToolCatalog then = catalogs.version(t.catalogue());
    if (then == null) {
      LOG.warn("session {}: turn {} was validated against catalogue {} of agent {}, which this process does not"
          + " know; its calls without an outcome are resolved in catalogue {}", sessionId, t.turn().turnId(),
          t.catalogue(), catalogs.agent(), current.version());
      return current;
    }
    return then;
  }

  /** Resolves and validates every call before anything runs (rule 2). */
  private List<CallSlot> slots(Turn turn, ToolCatalog catalog, Map<String, CallState> priors) {
    List<CallSlot> slots = new ArrayList<>(turn.calls().size());
    for (int i = 0; i < turn.calls().size(); i++) {
      ToolCall call = turn.calls().get(i);
      CallId callId = turn.callId(sessionId, i);
      ToolCatalog.Entry entry = catalog.get(call.name());
      String problem;
      if (entry == null) {
        problem = "unknown tool '" + call.name() + "'; this agent's tools are: "
            + String.join(", ", catalog.entries().stream().map(e -> e.tool().name()).toList());
      } else if (call.rawArguments() != null) {
        problem = call.argumentsProblem();
      } else {
        problem = entry.validator().problems(call.arguments());
      }
      CallState prior = priors.getOrDefault(callId.value(), CallState.fresh(callId.value()));
      slots.add(new CallSlot(i, call, callId, entry, problem, prior));
    }
    return slots;
  }

  private Future<TurnResult> execute(Turn turn, List<CallSlot> slots, boolean recovering) {
    TurnRun run = new TurnRun(turn, slots, recovering);
    running.put(turn.turnId(), run);

    List<Future<CallResult>> all = new ArrayList<>();
    for (CallSlot slot : slots) {
      all.add(slot.done.future());
      beginRunning(slot);
      if (slot.prior.isDone()) {
        slot.done.complete(slot.prior.record());
        if (slot.isWrite() && slot.prior.record().outcome() != Outcome.SUCCEEDED) {
          stopWrites(run, slot);
        }
      } else if (!slot.isWrite()) {
        // reads, and calls that cannot run at all, do not wait for the write queue
        runRead(run, slot);
      }
    }
    for (CallSlot slot : slots) {
      if (slot.isWrite() && !slot.prior.isDone()) {
        enqueueWrite(run, slot);
      }
    }
    Future.join(all).onComplete(ar -> finishTurn(run));
    return run.result.future();
  }

  private void finishTurn(TurnRun run) {
    List<CallResult> results = new ArrayList<>();
    for (CallSlot slot : run.slots) {
      if (slot.done.future().failed()) {
        running.remove(run.turn.turnId());
        run.result.tryFail(slot.done.future().cause());
        return;
      }
      results.add(slot.done.future().result());
    }
    if (run.journaledResult != null) {
      running.remove(run.turn.turnId());
      emit("turn.completed", run.turn.turnId(), null, run.journaledResult.toJson());
      run.result.tryComplete(run.journaledResult);
      return;
    }
    TurnResult result = new TurnResult(sessionId, run.turn.turnId(), results);
    durably("turn_completed", () -> journal.turnCompleted(sessionId, epoch, result)).onComplete(ar -> {
      running.remove(run.turn.turnId());
      if (ar.succeeded()) {
        emit("turn.completed", run.turn.turnId(), null, ar.result().toJson());
        run.result.tryComplete(ar.result());
      } else {
        run.result.tryFail(ar.cause());
      }
    });
  }

  private void runRead(TurnRun run, CallSlot slot) {
    if (slot.problem != null) {
      complete(run, slot, Outcome.FAILED, null, notRun(slot.problem), 0, false, null);
      return;
    }
    if (slot.prior.approval() == null && slot.askReason() == null) {
      attempt(run, slot, 1, false, null);
      return;
    }
    // a read that asks waits for its own decision only: the other reads of the turn run meanwhile
    approval(run, slot).onComplete(ar -> {
      beginRunning(slot);
      if (ar.failed()) {
        slot.done.tryFail(ar.cause());
      } else if (ar.result() != null && !ar.result().approved()) {
        complete(run, slot, Outcome.FAILED, null, refused(ar.result()), 0, false, ar.result());
      } else {
        attempt(run, slot, 1, false, ar.result());
      }
    });
  }

  /**
   * Marks when a call starts running, so that its duration leaves out its wait in the write queue
   * and for approval. A write journaled as started before a restart ran since that start.
   */
  private static void beginRunning(CallSlot slot) {
    if (!slot.prior.wasStarted() || slot.prior.startedAt() <= 0) {
      slot.startedAt = System.currentTimeMillis();
    } else {
      slot.startedAt = slot.prior.startedAt();
    }
  }

  /** How long a call waited for its decision, from the request to the decision (across restarts too). */
  private static long approvalWait(ApprovalRecord approval) {
    return approval == null || approval.decidedAt() <= 0 || approval.requestedAt() <= 0 ? 0
        : Math.max(0, approval.decidedAt() - approval.requestedAt());
  }

  /**
   * The error of a call a person refused or whose approval expired (rule 4): it did not run, and
   * nothing invites calling it again, since that is what was refused.
   */
  private static String refused(ApprovalRecord approval) {
    if ("expired".equals(approval.status())) {
      return "the tool did not run: its approval expired before anyone decided";
    }
    return "the tool did not run because a person refused it: rejected by " + approval.approver()
        + (approval.reason() == null || approval.reason().isEmpty() ? "" : ": " + approval.reason());
  }

  private void enqueueWrite(TurnRun run, CallSlot slot) {
    Future<Void> queued = writeQueue.transform(ignored -> {
      if (fenced || stopped) {
        slot.done.tryFail(notOwner());
        return Future.succeededFuture();
      }
      try {
        runWrite(run, slot);
      } catch (RuntimeException e) {
        LOG.error("session {}: write {} could not be run", sessionId, slot.callId, e);
        slot.done.tryFail(e);
      }
      return slot.done.future().<Void>mapEmpty().otherwiseEmpty();
    });
    writeQueue = queued;
    // a completed future keeps the function that made it, and with it the whole turn: a queue that
    // has run dry lets go of it, or every idle session would hold its last turn until its next write
    queued.onComplete(ar -> {
      if (writeQueue == queued) {
        writeQueue = IDLE;
      }
    });
  }

  private void runWrite(TurnRun run, CallSlot slot) {
    beginRunning(slot);
    if (run.writesStopped) {
      complete(run, slot, Outcome.FAILED, null, CallResult.NOT_RUN_PREFIX + ": an earlier write of this turn ("
          + run.stoppedBy + ") did not succeed, so this write was skipped", 0, true, slot.prior.approval());
      return;
    }
    if (slot.problem != null) {
      complete(run, slot, Outcome.FAILED, null, notRun(slot.problem), 0, false, null);
      return;
    }
    (slot.startJournaled != null ? Future.<ApprovalRecord>succeededFuture(null) : approval(run, slot)).onComplete(ar -> {
      if (ar.failed()) {
        slot.done.tryFail(ar.cause());
        return;
      }
      ApprovalRecord approval = ar.result();
      if (approval != null) {
        beginRunning(slot);
      }
      if (approval != null && !approval.approved()) {
        complete(run, slot, Outcome.FAILED, null, refused(approval), 0, false, approval);
        return;
      }
      if (slot.effectClass() == EffectClass.NON_IDEMPOTENT_WRITE) {
        singleAttempt(run, slot, approval);
      } else if (run.recovering && slot.prior.wasStarted()) {
        // only a write journaled as started may have reached the provider before the restart
        lookupThenAttempt(run, slot, approval);
      } else {
        attempt(run, slot, 1, false, approval);
      }
    });
  }

  // ------------------------------------------------------------------ approvals (rule 4, 8)

  private Future<ApprovalRecord> approval(TurnRun run, CallSlot slot) {
    ApprovalRecord known = slot.prior.approval();
    if (known != null && !"pending".equals(known.status())) {
      return Future.succeededFuture(known);
    }
    String reason = known != null ? known.askedBecause() : slot.askReason();
    if (reason == null) {
      return Future.succeededFuture(null);
    }
    long now = System.currentTimeMillis();
    long requestedAt = known != null ? known.requestedAt() : now;
    long expiresAt = slot.prior.expiresAt() > 0 ? slot.prior.expiresAt()
        : options.approvalTimeoutMillis() > 0 ? requestedAt + options.approvalTimeoutMillis() : 0;
    ApprovalRequest request = new ApprovalRequest(catalogs.agent(), sessionId, run.turn.turnId(), slot.callId,
        slot.call.name(), slot.effectClass(), slot.call.arguments(), IdempotencyKey.argumentsHash(slot.call.arguments()),
        reason, requestedAt, expiresAt);
    Promise<ApprovalRecord> waiter = Promise.promise();
    approvalWaiters.put(slot.callId.value(), waiter);
    return durably("approval_requested", () -> journal.approvalRequested(epoch, request)).compose(status -> {
      if (!"pending".equals(status)) {
        approvalWaiters.remove(slot.callId.value());
        return journal.callState(sessionId, slot.callId).map(CallState::approval);
      }
      if (known == null) {
        emit("approval.requested", run.turn.turnId(), slot.callId.value(), request.toJson());
      }
      if (expiresAt > 0) {
        vertx.setTimer(Math.max(1, expiresAt - System.currentTimeMillis()), t -> expire(slot, request));
      }
      return waiter.future();
    });
  }

  private void expire(CallSlot slot, ApprovalRequest request) {
    if (!approvalWaiters.containsKey(slot.callId.value())) {
      return;
    }
    journal.approvalDecided(sessionId, slot.callId, request.argumentsHash(), "expired", "ratchet", "approval expired")
        .onComplete(ar -> approvalChanged(slot.callId));
  }

  // ------------------------------------------------------------------ attempts

  /** CallTool: a read or idempotent write, retried per policy with the same idempotency key. */
  private void attempt(TurnRun run, CallSlot slot, int attempt, boolean anyUncertain, ApprovalRecord approval) {
    if (fenced || stopped) {
      slot.done.tryFail(notOwner());
      return;
    }
    if (slot.isWrite() && attempt == 1 && slot.startJournaled != null) {
      emit("call.started", run.turn.turnId(), slot.callId.value(), slot.startJournaled);
      send(run, slot, attempt, anyUncertain, approval);
      return;
    }
    if (slot.isWrite() && !announcesSending(slot)) {
      // a fenced step before every write attempt: a node that lost the session sends nothing more (J4)
      JsonObject data = slot.startData(attempt);
      durably("call_started", () -> journal.callStarted(sessionId, epoch, run.turn.turnId(), slot.callId, attempt, data))
          .onComplete(ar -> {
            if (ar.failed()) {
              slot.done.tryFail(ar.cause());
            } else if (ar.result() != null) {
              slot.done.tryComplete(ar.result());
            } else {
              emit("call.started", run.turn.turnId(), slot.callId.value(), data);
              send(run, slot, attempt, anyUncertain, approval);
            }
          });
      return;
    }
    send(run, slot, attempt, anyUncertain, approval);
  }

  private void send(TurnRun run, CallSlot slot, int attempt, boolean anyUncertain, ApprovalRecord approval) {
    Tool tool = slot.entry.tool();
    int max = tool.retryPolicy().maxAttempts();
    SendGate gate = slot.isWrite() && announcesSending(slot) && !(attempt == 1 && slot.startJournaled != null)
        ? new SendGate() : null;
    invoke(slot, attempt, gate == null ? null : journalStartWhenSending(run, slot, attempt, gate)).onComplete(ar -> {
      if (gate != null && gate.end(slot)) {
        return;
      }
      Attempt a = gate == null ? classify(ar.succeeded() ? ar.result() : null, ar.cause()) : gate.classify(ar);
      boolean uncertain = anyUncertain || a.kind == AttemptKind.UNCERTAIN;
      OutcomeRules.Verdict verdict = OutcomeRules.judge(tool.effectClass(), a.kind, attempt, max, anyUncertain);
      if (verdict.retry()) {
        long delay = Math.max(tool.retryPolicy().backoffMillis(attempt + 1), a.retryAfterMillis);
        JsonObject data = new JsonObject().put("attempt", attempt).put("error", Redaction.scrub(a.error))
            .put("retryInMs", delay);
        journal.appendEvent(sessionId, epoch, "call.attempt_failed", run.turn.turnId(), slot.callId.value(), data)
            .onComplete(j -> {
              if (j.failed() && isFencing(j.cause())) {
                markFenced();
                slot.done.tryFail(notOwner());
                return;
              }
              emit("call.attempt_failed", run.turn.turnId(), slot.callId.value(), data);
              vertx.setTimer(Math.max(1, delay), t -> attempt(run, slot, attempt + 1, uncertain, approval));
            });
        return;
      }
      finish(run, slot, verdict, a, attempt, approval);
    });
  }

  /** CallSingleAttemptTool: journal "started" before the request leaves (J2); never sent twice. */
  private void singleAttempt(TurnRun run, CallSlot slot, ApprovalRecord approval) {
    if (slot.prior.wasStarted()) {
      // the runtime stopped after "started": the request may have left, so it is never sent again
      recoverStarted(run, slot, approval);
      return;
    }
    if (fenced || stopped) {
      slot.done.tryFail(notOwner());
      return;
    }
    if (slot.startJournaled == null && announcesSending(slot)) {
      SendGate gate = new SendGate();
      invoke(slot, 1, journalStartWhenSending(run, slot, 1, gate)).onComplete(res -> {
        if (!gate.end(slot)) {
          Attempt a = gate.classify(res);
          finish(run, slot, OutcomeRules.judge(EffectClass.NON_IDEMPOTENT_WRITE, a.kind, 1, 1, false), a, 1, approval);
        }
      });
      return;
    }
    JsonObject data = slot.startJournaled != null ? slot.startJournaled : slot.startData(1);
    Future<CallResult> started = slot.startJournaled != null ? Future.succeededFuture(null)
        : durably("call_started", () -> journal.callStarted(sessionId, epoch, run.turn.turnId(), slot.callId, 1, data));
    started.onComplete(ar -> {
      if (ar.failed()) {
        slot.done.tryFail(ar.cause());
        return;
      }
      if (ar.result() != null) {
        slot.done.tryComplete(ar.result());
        return;
      }
      emit("call.started", run.turn.turnId(), slot.callId.value(), data);
      invoke(slot, 1).onComplete(res -> {
        Attempt a = classify(res.succeeded() ? res.result() : null, res.cause());
        finish(run, slot, OutcomeRules.judge(EffectClass.NON_IDEMPOTENT_WRITE, a.kind, 1, 1, false), a, 1, approval);
      });
    });
  }

  private void recoverStarted(TurnRun run, CallSlot slot, ApprovalRecord approval) {
    Tool tool = slot.entry.tool();
    String unknown = "the runtime stopped while this write's request may have been in flight; it was not sent again."
        + " Check with the provider before calling it again";
    if (!tool.supportsLookup()) {
      complete(run, slot, Outcome.OUTCOME_UNKNOWN, null, unknown, slot.prior.attempts(), false, approval);
      return;
    }
    lookup(slot, Math.max(1, slot.prior.attempts())).onComplete(ar -> {
      if (ar.succeeded() && ar.result().isPresent()) {
        ToolResult found = ar.result().get();
        complete(run, slot, Outcome.SUCCEEDED, found.value(), null, slot.prior.attempts(), false, approval);
      } else {
        complete(run, slot, Outcome.OUTCOME_UNKNOWN, null, unknown + (ar.failed()
            ? " (looking it up failed: " + ar.cause().getMessage() + ")" : " (not found by lookup)"),
            slot.prior.attempts(), false, approval);
      }
    });
  }

  /**
   * Recovery of an idempotent write (J3): look for an earlier effect first; resend with the same key
   * only if none, and only within what is left of its retry budget (J8): the attempts journaled
   * before the restart count.
   */
  private void lookupThenAttempt(TurnRun run, CallSlot slot, ApprovalRecord approval) {
    Tool tool = slot.entry.tool();
    int sent = Math.max(1, slot.prior.attempts());
    if (!tool.supportsLookup()) {
      resendWithinBudget(run, slot, sent, approval, "");
      return;
    }
    lookup(slot, sent).onComplete(ar -> {
      if (ar.succeeded() && ar.result().isPresent()) {
        complete(run, slot, Outcome.SUCCEEDED, ar.result().get().value(), null, sent, false, approval);
      } else {
        resendWithinBudget(run, slot, sent, approval, ar.failed()
            ? " (looking it up failed: " + ar.cause().getMessage() + ")" : " (not found by lookup)");
      }
    });
  }

  private void resendWithinBudget(TurnRun run, CallSlot slot, int sent, ApprovalRecord approval, String lookedUp) {
    int max = slot.entry.tool().retryPolicy().maxAttempts();
    if (sent < max) {
      attempt(run, slot, sent + 1, true, approval);
      return;
    }
    complete(run, slot, Outcome.OUTCOME_UNKNOWN, null, "sent " + sent + " times, its whole retry budget; the runtime"
        + " stopped while the last request may have been in flight, so it was not sent again" + lookedUp
        + ". Check with the provider before calling it again", sent, false, approval);
  }

  private void finish(TurnRun run, CallSlot slot, OutcomeRules.Verdict verdict, Attempt a, int attempts,
                      ApprovalRecord approval) {
    String error = null;
    if (verdict.outcome() != Outcome.SUCCEEDED) {
      String base = a.error == null ? "the tool failed" : a.error;
      if (attempts > 1) {
        base = "failed after " + attempts + " attempts: " + base;
      }
      error = verdict.notRun() ? notRun(base) : base;
    }
    complete(run, slot, verdict.outcome(), a.value, error, attempts, false, approval);
  }

  private void complete(TurnRun run, CallSlot slot, Outcome outcome, Object value, String error, int attempts,
                        boolean skipped, ApprovalRecord approval) {
    value = Redaction.scrubValue(value); // whatever a tool source missed never reaches the journal (J6)
    error = Redaction.scrub(error);
    boolean truncated = false;
    slot.resultText = null;
    if (outcome == Outcome.SUCCEEDED && value != null) {
      String encoded = Json.encode(value);
      int size = JsonText.utf8Length(encoded);
      slot.resultText = encoded;
      if (size > options.maxResultBytes()) {
        slot.resultText = null;
        if (slot.isWrite()) {
          value = encoded.substring(0, Math.min(encoded.length(), options.maxResultBytes() / 2));
          truncated = true;
        } else {
          outcome = Outcome.FAILED;
          value = null;
          error = "the result is " + size + " bytes, over the limit of " + options.maxResultBytes()
              + " bytes; ask for less (narrow the query or page through it)";
        }
      }
    }
    CallResult record = new CallResult(slot.index, slot.callId, slot.call.name(), slot.call.modelCallId(),
        slot.effectClass(), outcome, value, error, attempts, skipped, truncated, approval,
        Math.max(0, System.currentTimeMillis() - slot.startedAt), null, approvalWait(approval));
    if (slot.isWrite() && outcome != Outcome.SUCCEEDED && !skipped) {
      stopWrites(run, slot);
    }
    run.unjournaled.add(new TurnRun.Completion(slot, record));
    if (!run.flushScheduled) {
      // outcomes reached in the same event-loop turn (typically a turn's reads) share one journal step
      run.flushScheduled = true;
      context.runOnContext(v -> flush(run));
    }
  }

  /** Group commit: journals the outcomes gathered so far, and the turn's results if they are the last ones. */
  private void flush(TurnRun run) {
    run.flushScheduled = false;
    List<TurnRun.Completion> batch = new ArrayList<>(run.unjournaled);
    run.unjournaled.clear();
    List<CallResult> records = new ArrayList<>(batch.size());
    Map<CallSlot, CallResult> inBatch = new HashMap<>();
    for (TurnRun.Completion c : batch) {
      records.add(c.record());
      inBatch.put(c.slot(), c.record());
    }
    TurnResult finished = null;
    List<CallResult> ordered = new ArrayList<>(run.slots.size());
    for (CallSlot slot : run.slots) {
      CallResult r = inBatch.get(slot);
      if (r == null && slot.done.future().succeeded()) {
        r = slot.done.future().result();
      }
      if (r == null) {
        ordered = null;
        break;
      }
      ordered.add(r);
    }
    if (ordered != null) {
      finished = new TurnResult(sessionId, run.turn.turnId(), ordered);
    }
    TurnResult turnResult = finished;
    CallSlot next = finished == null ? nextWriteToStartAtOnce(run, batch) : null;
    CallStart start = next == null ? null : new CallStart(next.callId, 1, next.startData(1));
    durably("calls_completed", () -> journal.callsCompleted(sessionId, epoch, run.turn.turnId(), records, turnResult,
        start, r -> resultText(run, r)))
        .onComplete(ar -> {
          if (ar.failed()) {
            batch.forEach(c -> c.slot().done.tryFail(ar.cause()));
            return;
          }
          if (ar.result().turnCompleted()) {
            run.journaledResult = turnResult;
          }
          if (ar.result().nextWriteStarted()) {
            next.startJournaled = start.data();
          }
          for (int i = 0; i < batch.size(); i++) {
            CallResult journaled = ar.result().records().get(i);
            if (journaled != batch.get(i).record()) {
              batch.get(i).slot().resultText = null;
            }
            emit("call.completed", run.turn.turnId(), journaled.callId().value(), journaled.toJson());
            batch.get(i).slot().done.tryComplete(journaled);
          }
        });
  }

  /**
   * A record's result as this engine encoded it to measure it; null when the journal answered an
   * earlier record instead (flush then clears it) or the call had no result.
   */
  private static String resultText(TurnRun run, CallResult r) {
    return r.index() >= 0 && r.index() < run.slots.size() ? run.slots.get(r.index()).resultText : null;
  }

  /**
   * The write that the queue runs right after a write of this batch succeeds, when it would be sent
   * at once: its "started" step then rides with this group commit instead of taking its own.
   */
  private CallSlot nextWriteToStartAtOnce(TurnRun run, List<TurnRun.Completion> batch) {
    if (run.recovering || run.writesStopped || fenced || stopped) {
      return null;
    }
    int last = -1;
    for (TurnRun.Completion c : batch) {
      if (c.slot().isWrite()) {
        if (c.record().outcome() != Outcome.SUCCEEDED) {
          return null;
        }
        last = Math.max(last, c.slot().index);
      }
    }
    return last < 0 ? null : startsAtOnce(nextWrite(run.slots, last));
  }

  private void stopWrites(TurnRun run, CallSlot slot) {
    if (!run.writesStopped) {
      run.writesStopped = true;
      run.stoppedBy = slot.call.name() + " #" + slot.index;
    }
  }

  // ------------------------------------------------------------------ calling tools

  private Future<ToolResult> invoke(CallSlot slot, int attempt) {
    return invoke(slot, attempt, null);
  }

  private Future<ToolResult> invoke(CallSlot slot, int attempt, Supplier<Future<Void>> beforeSend) {
    Tool tool = slot.entry.tool();
    long timeout = Math.max(1, tool.timeout().toMillis());
    ToolInvocation inv = new ToolInvocation(sessionId, slot.callId, slot.key, attempt, slot.call.arguments().copy(),
        System.currentTimeMillis() + timeout, callerId, beforeSend);
    return withTimeout(() -> tool.invoke(inv), timeout, tool.name());
  }

  private static boolean announcesSending(CallSlot slot) {
    return slot.entry != null && slot.entry.tool().announcesSending();
  }

  /**
   * What {@link ToolInvocation#sending()} runs for an attempt of a write whose tool announces it:
   * journals "started" (J2, J8) once the tool has its connection. Refused once the attempt ended or
   * this node no longer runs the session, so that nothing is sent then.
   */
  private Supplier<Future<Void>> journalStartWhenSending(TurnRun run, CallSlot slot, int attempt, SendGate gate) {
    return () -> onContext(() -> {
      if (gate.opened) {
        return Future.failedFuture(new ToolNotSentException("this attempt already announced its sending"));
      }
      if (gate.ended || slot.done.future().isComplete()) {
        return Future.failedFuture(new ToolNotSentException("the attempt already ended"));
      }
      if (fenced || stopped) {
        slot.done.tryFail(notOwner());
        return Future.failedFuture(new ToolNotSentException("session " + sessionId + " is no longer run here"));
      }
      gate.opened = true;
      JsonObject data = slot.startData(attempt);
      return durably("call_started", () -> journal.callStarted(sessionId, epoch, run.turn.turnId(), slot.callId,
          attempt, data)).transform(ar -> {
            if (ar.failed()) {
              slot.done.tryFail(ar.cause());
              return Future.failedFuture(new ToolNotSentException("the attempt could not be journaled"));
            }
            if (ar.result() != null) {
              slot.done.tryComplete(ar.result());
              return Future.failedFuture(new ToolNotSentException("the call already has an outcome"));
            }
            emit("call.started", run.turn.turnId(), slot.callId.value(), data);
            return gate.ended ? Future.failedFuture(new ToolNotSentException("the attempt already ended"))
                : Future.<Void>succeededFuture();
          });
    });
  }

  /** One attempt of a tool that announces sending: whether it was journaled as started, and whether it ended. */
  private static final class SendGate {
    boolean opened;
    boolean ended;

    /** Ends the attempt; true when the gate already settled the call (an earlier outcome, or fencing). */
    boolean end(CallSlot slot) {
      ended = true;
      return slot.done.future().isComplete();
    }

    /** An attempt that failed before it announced sending never left (rule 7), whatever the failure. */
    Attempt classify(io.vertx.core.AsyncResult<ToolResult> ar) {
      Attempt a = SessionEngine.classify(ar.succeeded() ? ar.result() : null, ar.cause());
      return ar.failed() && !opened && a.kind != AttemptKind.NOT_SENT ? new Attempt(AttemptKind.NOT_SENT, null, a.error
          + " (before its request was sent)", 0) : a;
    }
  }

  private Future<Optional<ToolResult>> lookup(CallSlot slot, int attempt) {
    Tool tool = slot.entry.tool();
    long timeout = Math.max(1, tool.timeout().toMillis());
    ToolInvocation inv = new ToolInvocation(sessionId, slot.callId, slot.key, attempt, slot.call.arguments().copy(),
        System.currentTimeMillis() + timeout, callerId);
    return withTimeout(() -> tool.lookup(inv), timeout, tool.name() + " lookup");
  }

  private <T> Future<T> withTimeout(Supplier<Future<T>> call, long timeoutMillis, String what) {
    Promise<T> promise = Promise.promise();
    long timer = vertx.setTimer(timeoutMillis, t -> context.runOnContext(v -> promise.tryFail(
        new java.util.concurrent.TimeoutException(what + " did not answer within " + timeoutMillis + " ms"))));
    Future<T> f;
    try {
      f = call.get();
      if (f == null) {
        f = Future.failedFuture(new IllegalStateException(what + " returned no future"));
      }
    } catch (RuntimeException e) {
      f = Future.failedFuture(e);
    }
    f.onComplete(ar -> {
      vertx.cancelTimer(timer);
      if (Vertx.currentContext() == context) {
        settle(promise, ar);
      } else {
        context.runOnContext(v -> settle(promise, ar));
      }
    });
    return promise.future();
  }

  private static <T> void settle(Promise<T> promise, io.vertx.core.AsyncResult<T> ar) {
    if (ar.succeeded()) {
      promise.tryComplete(ar.result());
    } else {
      promise.tryFail(ar.cause());
    }
  }

  /** How an attempt ended, with its value and a message for the model. */
  private record Attempt(AttemptKind kind, Object value, String error, long retryAfterMillis) {
  }

  private static Attempt classify(ToolResult result, Throwable failure) {
    if (failure != null) {
      if (failure instanceof ToolNotSentException) {
        return new Attempt(AttemptKind.NOT_SENT, null, failure.getMessage(), 0);
      }
      String msg = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
      return new Attempt(AttemptKind.UNCERTAIN, null, msg, 0);
    }
    if (result == null) {
      return new Attempt(AttemptKind.SUCCESS, null, null, 0);
    }
    switch (result.outcome()) {
      case SUCCEEDED:
        return new Attempt(AttemptKind.SUCCESS, result.value(), null, 0);
      case OUTCOME_UNKNOWN:
        return new Attempt(AttemptKind.UNCERTAIN, result.value(), result.error(), result.retryAfterMillis());
      default:
        return new Attempt(result.retryable() ? AttemptKind.RETRYABLE : AttemptKind.REJECTED, result.value(),
            result.error(), result.retryAfterMillis());
    }
  }

  // ------------------------------------------------------------------ journal plumbing

  /** Runs a journal step, retrying while the journal is unreachable; a fencing refusal stops the session (J4). */
  private <T> Future<T> durably(String step, Supplier<Future<T>> op) {
    Promise<T> promise = Promise.promise();
    long giveUpAt = System.currentTimeMillis() + options.journalRetryMillis();
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
        markFenced();
        promise.tryFail(err);
      } else if (isUnavailable(err) && System.currentTimeMillis() < giveUpAt && !stopped) {
        LOG.warn("session {}: journal step {} failed ({}), retrying in {} ms", sessionId, step, err.getMessage(), delay);
        vertx.setTimer(delay, t -> durably(step, op, promise, giveUpAt, Math.min(delay * 2, 2_000)));
      } else {
        promise.tryFail(err);
      }
    });
  }

  private <T> Future<T> noteFencing(Throwable err) {
    if (isFencing(err)) {
      markFenced();
    }
    return Future.failedFuture(err);
  }

  private void markFenced() {
    if (!fenced) {
      fenced = true;
      LOG.warn("session {}: another node took over (epoch {} is stale); this node stops running it", sessionId, epoch);
      approvalWaiters.values().forEach(p -> p.tryFail(notOwner()));
      emit("session.fenced", null, null, new JsonObject().put("epoch", epoch));
    }
  }

  private static boolean isFencing(Throwable err) {
    return err instanceof RatchetException && "FENCED".equals(((RatchetException) err).code());
  }

  private static boolean isUnavailable(Throwable err) {
    return err instanceof RatchetException && "JOURNAL_UNAVAILABLE".equals(((RatchetException) err).code());
  }

  private RatchetException notOwner() {
    return new RatchetException("FENCED", "session " + sessionId + " is no longer run by this node");
  }

  private static String notRun(String message) {
    if (message != null && message.startsWith(CallResult.NOT_RUN_PREFIX)) {
      return message;
    }
    return CallResult.NOT_RUN_PREFIX + ": " + message;
  }

  private void emit(String type, String turnId, String callId, JsonObject data) {
    StepEvents.emit(events, sessionId, type, turnId, callId, data);
  }

  private <T> Future<T> onContext(Supplier<Future<T>> action) {
    return Contexts.onContext(context, action);
  }
}
