package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.journal.LuaScripts.Script;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The Redis journal: every step of every session, appended by one Lua script per state transition,
 * each fenced by the session owner's epoch (J4). Safe to share between sessions and threads. Beyond
 * {@link SessionJournal}, it answers what only Redis knows: {@link #persistence()}, {@link #info},
 * {@link #commandStats()} and raw commands ({@link #send}), for the CLI, the benchmark and tests.
 * This class journals the fenced transitions; its reads are {@link RedisQueries}', what it tells of
 * Redis {@link RedisDiagnostics}', and its client, pipelines and errors {@link RedisConnections}'.
 */
public final class RedisJournal implements SessionJournal, JournalRetention {

  private final RedisConnections redis;
  private final JournalKeys keys;
  private final RedisQueries queries;
  private final RedisDiagnostics diagnostics;
  private final RedisRetention retention;

  private RedisJournal(Vertx vertx, JournalOptions options) {
    this.redis = new RedisConnections(vertx, options);
    this.keys = new JournalKeys(options.keyPrefix());
    this.queries = new RedisQueries(redis, keys);
    this.diagnostics = new RedisDiagnostics(redis, keys);
    this.retention = new RedisRetention(vertx, redis, keys, queries);
  }

  /** The layout of the keys this journal writes and reads, kept under {@link JournalKeys#layout()}. */
  static final String LAYOUT = "1";

  /**
   * Connects, loads the journal's scripts and checks the journal's layout: a journal with no layout
   * key gets this one (every journal without the key has it), a journal of another layout is
   * refused rather than misread.
   */
  public static Future<RedisJournal> open(Vertx vertx, JournalOptions options) {
    RedisJournal journal = new RedisJournal(vertx, options);
    return journal.redis.load()
        .recover(err -> Future.failedFuture(RedisConnections.unavailable("cannot open the journal at "
            + journal.describe(), err)))
        .compose(v -> journal.checkLayout())
        .map(journal)
        .onFailure(err -> journal.close());
  }

  private Future<Void> checkLayout() {
    String key = keys.layout();
    // the mark is no step: opening does not wait for replicas (journal.waitReplicas), the first step does
    return redis.pipeline(List.of(Request.cmd(Command.SET).arg(key).arg(LAYOUT).arg("NX"), Request.cmd(Command.GET).arg(key)),
            false)
        .recover(err -> Future.failedFuture(RedisConnections.unavailable("cannot read the journal's layout", err)))
        .compose(replies -> {
          String found = replies.get(1) == null ? null : replies.get(1).toString();
          return LAYOUT.equals(found) ? Future.succeededFuture()
              : Future.failedFuture(new RatchetException(ErrorCode.JOURNAL_LAYOUT, "this journal was written by layout " + found
                  + "; this Ratchet reads layout " + LAYOUT + " (key " + key + ")"));
        });
  }

  @Override
  public Future<Void> close() {
    redis.close();
    return Future.succeededFuture();
  }

  /** The Redis URL with any password hidden. */
  @Override
  public String describe() {
    return redis.describe();
  }

  /**
   * What replicas hold of an acknowledged step, for the start-up line: with
   * {@code journal.waitReplicas} N, every step waited until N replicas held it. Empty for one
   * server whose steps do not wait.
   */
  public String replication() {
    return redis.replication();
  }

  // ---------------------------------------------------------------- session ownership

  /** Takes ownership of a session and returns its new fencing epoch. */
  @Override
  public Future<Long> claim(String sessionId, String owner) {
    return retention.notForgotten(sessionId).compose(v -> run(Script.CLAIM_AND_LOAD,
        List.of(keys.meta(sessionId), keys.events(sessionId), keys.inflight(sessionId)),
        List.of(owner, now(), keys.turn(sessionId, "")))).map(r -> r.get(0).toLong());
  }

  /**
   * Takes ownership of a session (a new fencing epoch, as {@link #claim}) and loads the turns it
   * holds in flight with each call's state, in two round trips: the claim answers the in-flight
   * turns in the same script, then every call's state is read at once. Sessions starting together
   * on one event loop (recovery) share that loop's connection, so their steps leave pipelined.
   */
  @Override
  public Future<ClaimedSession> claimAndLoad(String sessionId, String owner) {
    return retention.notForgotten(sessionId).compose(v -> run(Script.CLAIM_AND_LOAD,
        List.of(keys.meta(sessionId), keys.events(sessionId), keys.inflight(sessionId)),
        List.of(owner, now(), keys.turn(sessionId, "")))).compose(r -> {
          long epoch = r.get(0).toLong();
          String caller = r.get(1) == null || r.get(1).toString().isEmpty() ? null : r.get(1).toString();
          List<Turn> turns = new ArrayList<>();
          List<Long> submitted = new ArrayList<>();
          List<String> entries = new ArrayList<>();
          List<JsonObject> specs = new ArrayList<>();
          for (int i = 2; i + 3 < r.size(); i += 4) {
            JsonObject spec = new JsonObject(r.get(i + 1).toString());
            turns.add(Turn.fromJson(spec));
            specs.add(spec);
            submitted.add(r.get(i + 2).toLong());
            entries.add(r.get(i + 3).toString());
          }
          return queries.withCallStates(sessionId, turns, submitted, entries, specs)
              .map(list -> new ClaimedSession(epoch, caller, list));
        });
  }

  // ---------------------------------------------------------------- turns

  @Override
  public Future<SubmitAnswer> submitTurn(String sessionId, long epoch, String agent, String callerId, String creator,
                                         Turn turn, String catalogue, String replyAddress, boolean index,
                                         CallStart firstWrite) {
    String specHash = TurnText.hash(turn);
    byte[] encodedSpec = TurnText.specBytes(turn, catalogue, replyAddress);
    String now = now();
    List<Object> keyList = new ArrayList<>(7);
    keyList.add(keys.metaBytes(sessionId));
    keyList.add(keys.eventsBytes(sessionId));
    keyList.add(keys.turnBytes(sessionId, turn.turnId()));
    keyList.add(keys.inflightBytes(sessionId));
    keyList.add(keys.tombstones(sessionId));
    keyList.add(keys.expired(sessionId));
    List<Object> args = new ArrayList<>(11);
    args.add(epoch);
    args.add(turn.turnId());
    args.add(encodedSpec);
    args.add(specHash);
    args.add(agent);
    args.add(now);
    args.add(callerId == null ? "" : callerId);
    args.add(creator == null ? "" : creator);
    if (firstWrite != null) {
      keyList.add(keys.callBytes(sessionId, firstWrite.callId().value()));
      args.add(StepEntries.fieldBytes(EventType.CALL_STARTED.wireName(), firstWrite.callId().value()));
      args.add((long) firstWrite.attempt());
      args.add(RecordText.jsonBytes(firstWrite.data()));
    }
    Future<Response> reply;
    if (index) {
      // the recovery index is written before the turn, in the same pipeline: one round trip, and a
      // crash can leave an index entry without a turn but never a turn that recovery cannot find
      reply = redis.runAfter(List.of(
          Request.cmd(Command.SADD).arg(keys.activeSessions()).arg(sessionId),
          Request.cmd(Command.ZADD).arg(keys.recentSessions()).arg(now).arg(sessionId)),
          Script.SUBMIT_TURN, keyList, args);
    } else {
      reply = run(Script.SUBMIT_TURN, keyList, args);
    }
    return reply.compose(r -> {
      String status = r.get(0).toString();
      switch (status) {
        case "new":
          return Future.succeededFuture(new SubmitAnswer(SubmitAnswer.Status.NEW, null,
              r.size() > 1 && "1".equals(r.get(1).toString())));
        case "conflict":
          return Future.succeededFuture(new SubmitAnswer(SubmitAnswer.Status.CONFLICT, null));
        case "tombstone":
          return Future.succeededFuture(new SubmitAnswer(SubmitAnswer.Status.COMPLETED,
              Tombstones.results(new JsonObject(r.get(1).toString()), sessionId, turn)));
        case "expired":
          return Future.succeededFuture(new SubmitAnswer(SubmitAnswer.Status.EXPIRED, null));
        case "completed":
          // a turn completed by a group commit answers from its calls' records
          return r.get(1).toString().isEmpty()
              ? queries.turnResult(sessionId, turn.turnId()).map(results -> new SubmitAnswer(SubmitAnswer.Status.COMPLETED, results))
              : Future.succeededFuture(new SubmitAnswer(SubmitAnswer.Status.COMPLETED,
                  TurnResult.fromJson(new JsonObject(r.get(1).toString()))));
        default:
          return Future.succeededFuture(new SubmitAnswer(SubmitAnswer.Status.RUNNING, null));
      }
    });
  }

  /** Journals a turn's results (J7); answers the results journaled first if the turn was already completed. */
  @Override
  public Future<TurnResult> turnCompleted(String sessionId, long epoch, TurnResult result) {
    List<String> keyList = new ArrayList<>(4 + result.calls().size());
    keyList.addAll(List.of(keys.meta(sessionId), keys.events(sessionId), keys.turn(sessionId, result.turnId()),
        keys.inflight(sessionId)));
    List<String> args = new ArrayList<>(5 + result.calls().size());
    args.addAll(List.of(String.valueOf(epoch), result.turnId(),
        RecordText.turnHead(result.sessionId(), result.turnId(), 0).toString(), now(), RecordText.turnSummary(result)));
    // readers put a turn's results together from its calls in the model's order: only results in that
    // order may be left to them
    boolean inOrder = true;
    for (int i = 0; i < result.calls().size(); i++) {
      CallResult c = result.calls().get(i);
      inOrder &= c.index() == i;
      keyList.add(keys.call(sessionId, c.callId().value()));
      args.add(RecordText.full(c, null));
    }
    List<String> turnKeys = inOrder ? keyList : keyList.subList(0, 4);
    return run(Script.TURN_COMPLETED, turnKeys, args)
        .compose(r -> !"done".equals(r.get(0).toString()) ? Future.succeededFuture(result)
            : r.get(1) == null || r.get(1).toString().isEmpty() ? turnResult(sessionId, result.turnId())
            : Future.succeededFuture(TurnResult.fromJson(new JsonObject(r.get(1).toString()))));
  }

  // ---------------------------------------------------------------- calls

  /**
   * Journals that an attempt is about to send its request. Answers the call's existing record
   * when it already has an outcome (then nothing may be sent), else null.
   */
  @Override
  public Future<CallResult> callStarted(String sessionId, long epoch, String turnId, CallId callId, int attempt,
                                        JsonObject data) {
    return run(Script.CALL_STARTED,
        List.of(keys.metaBytes(sessionId), keys.eventsBytes(sessionId), keys.callBytes(sessionId, callId.value())),
        List.of(epoch, turnId, callId.value(), (long) attempt, System.currentTimeMillis(), RecordText.jsonBytes(data)))
        .map(r -> "done".equals(r.get(0).toString()) ? CallResult.fromJson(new JsonObject(r.get(1).toString())) : null);
  }

  /** Journals a terminal outcome once (J1); answers the record that is journaled, which may be an earlier one. */
  @Override
  public Future<CallResult> callCompleted(String sessionId, long epoch, String turnId, CallResult record) {
    return callsCompleted(sessionId, epoch, turnId, List.of(record), null).map(c -> c.records().get(0));
  }

  @Override
  public Future<CompletedCalls> callsCompleted(String sessionId, long epoch, String turnId, List<CallResult> records,
                                               TurnResult turnResult, CallStart nextWrite,
                                               Function<CallResult, String> resultTexts) {
    List<Object> keyList = new ArrayList<>(5 + records.size() + (turnResult == null ? 0 : turnResult.calls().size()));
    keyList.add(keys.metaBytes(sessionId));
    keyList.add(keys.eventsBytes(sessionId));
    keyList.add(keys.turnBytes(sessionId, turnId));
    keyList.add(keys.inflightBytes(sessionId));
    // keys, fields and records go as bytes written once
    List<Object> args = new ArrayList<>(8 + records.size() * 4);
    args.add(epoch);
    args.add(turnId);
    args.add(System.currentTimeMillis());
    if (turnResult == null) {
      args.add("");
      args.add("");
    } else {
      args.add("1");
      args.add(RecordText.turnSummary(turnResult));
    }
    if (nextWrite == null) {
      args.add("");
      args.add("");
      args.add("");
    } else {
      keyList.add(keys.callBytes(sessionId, nextWrite.callId().value()));
      args.add(StepEntries.fieldBytes(EventType.CALL_STARTED.wireName(), nextWrite.callId().value()));
      args.add((long) nextWrite.attempt());
      args.add(RecordText.jsonBytes(nextWrite.data()));
    }
    for (CallResult record : records) {
      keyList.add(keys.callBytes(sessionId, record.callId().value()));
      String resultText = RecordText.resultText(record, resultTexts.apply(record));
      args.add(StepEntries.fieldBytes(EventType.CALL_COMPLETED.wireName(), record.callId().value()));
      args.add(RecordText.completedEventBytes(record, resultText));
      args.add(RecordText.fullBytes(record, resultText));
      // the script only needs to know an unknown outcome, which it points at the turn for reconciling
      args.add(record.outcome() == Outcome.OUTCOME_UNKNOWN ? record.outcome().wireName() : "");
    }
    if (turnResult != null) {
      // the script checks that each other call of the turn has a record (J7)
      Set<String> inStep = new HashSet<>();
      records.forEach(r -> inStep.add(r.callId().value()));
      for (CallResult call : turnResult.calls()) {
        if (!inStep.contains(call.callId().value())) {
          keyList.add(keys.callBytes(sessionId, call.callId().value()));
        }
      }
    }
    return redis.run(Script.CALLS_COMPLETED, keyList, args).map(r -> {
      boolean turnDone = r.get(0).toInteger() == 1;
      boolean started = r.get(1).toInteger() == 1;
      if (r.size() == 2) {
        // every record is new: each is journaled as sent
        return new CompletedCalls(records, turnDone, started);
      }
      List<CallResult> journaled = new ArrayList<>(records.size());
      for (int i = 0; i < records.size(); i++) {
        String existing = r.get(i + 2).toString();
        journaled.add(existing.isEmpty() ? records.get(i) : CallResult.fromJson(new JsonObject(existing)));
      }
      return new CompletedCalls(journaled, turnDone, started);
    });
  }

  /** Appends an informational step event, fenced like every other append. */
  @Override
  public Future<Void> appendEvent(String sessionId, long epoch, String type, String turnId, String callId,
                                  JsonObject data) {
    return run(Script.APPEND_EVENT, List.of(keys.metaBytes(sessionId), keys.eventsBytes(sessionId)),
        List.of(epoch, type, turnId == null ? "" : turnId, callId == null ? "" : callId, System.currentTimeMillis(),
            RecordText.jsonBytes(data))).mapEmpty();
  }

  // ---------------------------------------------------------------- approvals

  /**
   * Journals an approval request (J5) and indexes it for the inbox. Answers the existing approval
   * status if the call already asked (for example before a restart), else "pending".
   */
  @Override
  public Future<String> approvalRequested(long epoch, ApprovalRequest request) {
    String sessionId = request.sessionId();
    String member = RedisQueries.approvalMember(sessionId, request.callId().value());
    return send(Request.cmd(Command.ZADD).arg(keys.pendingApprovals()).arg(request.requestedAt()).arg(member))
        .compose(v -> run(Script.APPROVAL_REQUESTED,
            List.of(keys.meta(sessionId), keys.events(sessionId), keys.call(sessionId, request.callId().value())),
            List.of(String.valueOf(epoch), request.turnId(), request.callId().value(), request.toJson().encode(),
                request.argumentsHash(), String.valueOf(request.expiresAt()), String.valueOf(request.requestedAt()))))
        .map(r -> {
          String status = r.get(0).toString();
          if ("exists".equals(status)) {
            return r.get(1).toString();
          }
          return "done".equals(status) ? "decided" : "pending";
        });
  }

  /** Journals a decision after checking it (rule 8) and drops it from the inbox once decided. */
  @Override
  public Future<DecisionAnswer> approvalDecided(String sessionId, CallId callId, String argumentsHash,
                                                String status, String approver, String reason,
                                                JsonObject editedArguments) {
    return run(Script.APPROVAL_DECIDED,
        List.of(keys.meta(sessionId), keys.events(sessionId), keys.call(sessionId, callId.value())),
        List.of(callId.value(), argumentsHash, status, approver, reason == null ? "" : reason, now(),
            editedArguments == null || !"approved".equals(status) ? "" : editedArguments.encode()))
        .compose(r -> {
          String answer = r.get(0).toString();
          DecisionAnswer decision;
          switch (answer) {
            case "ok":
              decision = DecisionAnswer.ACCEPTED;
              break;
            case "unknown_call":
              return Future.succeededFuture(DecisionAnswer.UNKNOWN_CALL);
            case "already_decided":
              decision = DecisionAnswer.ALREADY_DECIDED;
              break;
            case "stale":
              return Future.succeededFuture(DecisionAnswer.STALE);
            default:
              decision = DecisionAnswer.EXPIRED;
          }
          return send(Request.cmd(Command.ZREM).arg(keys.pendingApprovals())
              .arg(RedisQueries.approvalMember(sessionId, callId.value()))).map(decision);
        });
  }

  // ---------------------------------------------------------------- reconciliation

  /**
   * Records a person's finding for an {@code outcome_unknown} call. Fails with code
   * {@code UNKNOWN_CALL} or {@code NOT_UNKNOWN} when the call is not open to reconciliation.
   */
  @Override
  public Future<CallResult> reconcile(String sessionId, CallId callId, Outcome outcome, String who, String note) {
    if (outcome == Outcome.OUTCOME_UNKNOWN) {
      return Future.failedFuture(new RatchetException(ErrorCode.INVALID_REQUEST, "reconcile to succeeded or failed"));
    }
    return send(Request.cmd(Command.HMGET).arg(keys.call(sessionId, callId.value())).arg("record").arg("turn"))
        .compose(call -> {
          if (call.get(0) == null) {
            return Future.failedFuture(new RatchetException(ErrorCode.UNKNOWN_CALL, "no completed call " + callId
                + " in session " + sessionId));
          }
          CallResult r = CallResult.fromJson(new JsonObject(call.get(0).toString()));
          CallResult updated = new CallResult(r.index(), r.callId(), r.tool(), r.modelCallId(), r.effectClass(),
              outcome, r.result(), note == null ? r.error() : r.error() == null ? "reconciled: " + note
              : r.error() + " (reconciled: " + note + ")", r.attempts(), r.skipped(), r.truncated(), r.approval(),
              r.durationMillis(), who, r.approvalWaitMillis());
          JsonObject event = new JsonObject().put("outcome", outcome.wireName()).put("by", who).put("note", note);
          String turnId = call.get(1) == null ? "" : call.get(1).toString();
          return reconciledTurnKeys(sessionId, turnId).compose(turnKeys -> {
            List<String> keyList = new ArrayList<>(List.of(keys.meta(sessionId), keys.events(sessionId),
                keys.call(sessionId, callId.value())));
            List<String> args = new ArrayList<>(List.of(callId.value(), outcome.wireName(), updated.toJson().encode(),
                now(), event.encode()));
            if (turnKeys != null) {
              keyList.addAll(turnKeys.keys());
              args.add(turnKeys.head());
            }
            return run(Script.CALL_RECONCILED, keyList, args);
          }).compose(resp -> {
            String answer = resp.get(0).toString();
            if ("ok".equals(answer)) {
              return Future.succeededFuture(updated);
            }
            if ("unknown_call".equals(answer)) {
              return Future.failedFuture(new RatchetException(ErrorCode.UNKNOWN_CALL, "no completed call " + callId));
            }
            return Future.failedFuture(new RatchetException(ErrorCode.NOT_UNKNOWN, "call " + callId + " ended "
                + resp.get(1) + "; only outcome_unknown calls can be reconciled"));
          });
        });
  }

  /** The call's turn and the calls of that turn, with the head of the turn's results. */
  private record TurnKeys(List<String> keys, String head) {
  }

  /**
   * What a reconciliation passes so that the call's turn keeps answering as it first did (null when
   * the call names no turn): read before the script, as a script must be given every key it touches.
   */
  private Future<TurnKeys> reconciledTurnKeys(String sessionId, String turnId) {
    if (turnId.isEmpty()) {
      return Future.succeededFuture(null);
    }
    return send(Request.cmd(Command.HGET).arg(keys.turn(sessionId, turnId)).arg("spec")).map(spec -> {
      if (spec == null) {
        return null;
      }
      List<String> turnKeys = new ArrayList<>();
      turnKeys.add(keys.turn(sessionId, turnId));
      turnKeys.addAll(keys.calls(sessionId, Turn.fromJson(new JsonObject(spec.toString()))));
      return new TurnKeys(turnKeys, RecordText.turnHead(sessionId, turnId, 0).toString());
    });
  }

  // ---------------------------------------------------------------- agent loop

  @Override
  public Future<ConversationAppend> messageUser(String sessionId, long epoch, String agent, String callerId,
                                                String creator, String messageId, JsonObject entry,
                                                JsonObject eventData) {
    String now = now();
    List<Request> indexes = List.of(
        Request.cmd(Command.SADD).arg(keys.activeSessions()).arg(sessionId),
        Request.cmd(Command.ZADD).arg(keys.recentSessions()).arg(now).arg(sessionId));
    return redis.batch(indexes)
        .compose(v -> run(Script.MESSAGE_USER, loopKeys(sessionId),
            List.of(String.valueOf(epoch), messageId, entry.encode(), agent, now, eventData.encode(),
                callerId == null ? "" : callerId, creator == null ? "" : creator)))
        .map(r -> new ConversationAppend(Long.parseLong(r.get(1).toString()), "ok".equals(r.get(0).toString()), entry));
  }

  /**
   * Records a model response for a loop step once. Fails with {@code STEP_OUT_OF_ORDER} when the
   * step does not follow the last recorded one; answers the first record when the step has one.
   */
  @Override
  public Future<ConversationAppend> modelResponse(String sessionId, long epoch, long step, String turnId,
                                                  JsonObject entry, JsonObject eventData) {
    String now = now();
    List<Request> indexes = List.of(Request.cmd(Command.ZADD).arg(keys.recentSessions()).arg(now).arg(sessionId));
    return redis.batch(indexes)
        .compose(v -> run(Script.MODEL_RESPONSE, loopKeys(sessionId),
            List.of(String.valueOf(epoch), String.valueOf(step), entry.encode(), now, eventData.encode(),
                turnId == null ? "" : turnId)))
        .compose(r -> {
          String status = r.get(0).toString();
          if ("out_of_order".equals(status)) {
            return Future.failedFuture(new RatchetException(ErrorCode.STEP_OUT_OF_ORDER, "session " + sessionId
                + ": step " + step + " does not follow the last recorded step " + r.get(1)));
          }
          long index = Long.parseLong(r.get(1).toString());
          return Future.succeededFuture("ok".equals(status) ? new ConversationAppend(index, true, entry)
              : new ConversationAppend(index, false, new JsonObject(r.get(2).toString())));
        });
  }

  /** Ends a round once per end id: {@code message.assistant} with the answer, or {@code model.failed}. */
  @Override
  public Future<ConversationAppend> roundEnded(String sessionId, long epoch, String endId, String eventType,
                                               JsonObject entry, JsonObject eventData) {
    return run(Script.MESSAGE_ASSISTANT, loopKeys(sessionId),
        List.of(String.valueOf(epoch), endId, entry.encode(), now(), eventType, eventData.encode()))
        .map(r -> new ConversationAppend(Long.parseLong(r.get(1).toString()), "ok".equals(r.get(0).toString()), entry));
  }

  private List<String> loopKeys(String sessionId) {
    return List.of(keys.meta(sessionId), keys.events(sessionId), keys.loop(sessionId), keys.conversation(sessionId));
  }

  // ---------------------------------------------------------------- reading the journal

  /** Drops a session from the recovery set; called when it has nothing in flight. */
  @Override
  public Future<Void> markIdle(String sessionId) {
    return send(Request.cmd(Command.SREM).arg(keys.activeSessions()).arg(sessionId)).mapEmpty();
  }

  // ---------------------------------------------------------------- reads (RedisQueries)

  @Override
  public Future<Long> currentEpoch(String sessionId) {
    return queries.currentEpoch(sessionId);
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
  public Future<String> turnStatus(String sessionId, String turnId) {
    return queries.turnStatus(sessionId, turnId);
  }

  @Override
  public Future<Turn> submittedTurn(String sessionId, String turnId) {
    return send(Request.cmd(Command.HGET).arg(keys.turn(sessionId, turnId)).arg("spec"))
        .map(spec -> spec == null ? null : Turn.fromJson(new JsonObject(spec.toString())));
  }

  @Override
  public Future<String> turnHome(String callerId, String agent, String turnId, String sessionId) {
    String key = keys.turnHome(callerId, agent, turnId);
    return redis.pipeline(List.of(Request.cmd(Command.SET).arg(key).arg(sessionId).arg("NX").arg("PX")
            .arg(TURN_HOME_MILLIS), Request.cmd(Command.GET).arg(key)), false)
        .map(replies -> replies.get(1) == null ? sessionId : replies.get(1).toString());
  }

  @Override
  public Future<CallState> callState(String sessionId, CallId callId) {
    return queries.callState(sessionId, callId);
  }

  @Override
  public Future<ApprovalRequest> approvalRequest(String sessionId, CallId callId) {
    return queries.approvalRequest(sessionId, callId.value());
  }

  @Override
  public Future<List<ApprovalRequest>> pendingApprovals(int limit) {
    return queries.pendingApprovals(limit);
  }

  @Override
  public Future<List<JsonObject>> conversation(String sessionId) {
    return queries.conversation(sessionId);
  }

  @Override
  public Future<List<JsonObject>> events(String sessionId, String afterId, int count) {
    return queries.events(sessionId, afterId, count);
  }

  @Override
  public Future<JsonObject> sessionInfo(String sessionId) {
    return queries.sessionInfo(sessionId);
  }

  @Override
  public Future<List<String>> recentSessions(int offset, int limit) {
    return queries.recentSessions(offset, limit);
  }

  @Override
  public Future<Map<String, String>> sessionAgents(List<String> sessionIds) {
    return queries.sessionAgents(sessionIds);
  }

  @Override
  public Future<List<String>> activeSessions() {
    return queries.activeSessions();
  }

  @Override
  public Future<List<String>> withWorkInFlight(List<String> sessionIds) {
    return queries.withWorkInFlight(sessionIds);
  }

  // ---------------------------------------------------------------- retention (RedisRetention)

  @Override
  public Future<List<SessionActivity>> activeSince(long since, int limit) {
    return retention.activeSince(since, limit);
  }

  @Override
  public Future<Void> schedule(String sessionId, long dueAt) {
    return retention.schedule(sessionId, dueAt);
  }

  @Override
  public Future<List<String>> due(long now, int limit) {
    return retention.due(now, limit);
  }

  @Override
  public Future<SessionHistory> history(String sessionId) {
    return retention.history(sessionId);
  }

  @Override
  public Future<Removal> remove(String sessionId, long epoch, RemovalPlan plan) {
    return retention.remove(sessionId, epoch, plan);
  }

  @Override
  public Future<Boolean> forget(String sessionId, long epoch, long seenUpdatedAt, long archivedBefore) {
    return retention.forget(sessionId, epoch, seenUpdatedAt, archivedBefore);
  }

  @Override
  public Future<Void> refuseForgotten() {
    return retention.refuseForgotten();
  }

  @Override
  public Future<Boolean> erase(String sessionId, String who) {
    return retention.erase(sessionId, who);
  }

  @Override
  public Future<List<JsonObject>> audit(int count) {
    return retention.audit(count);
  }

  @Override
  public Future<Integer> importSession(SessionHistory history) {
    return retention.importSession(history);
  }

  // ---------------------------------------------------------------- Redis itself (RedisDiagnostics)

  @Override
  public Future<Void> reachable() {
    return diagnostics.reachable();
  }

  /** Whether Redis answers and accepts writes. */
  @Override
  public Future<Void> ping() {
    return diagnostics.ping();
  }

  /** What the server guarantees for an acknowledged step: AOF on/off and its fsync policy. */
  public Future<Persistence> persistence() {
    return diagnostics.persistence();
  }

  /**
   * The fewest replicas any master of the journal has now: below {@code journal.waitReplicas},
   * steps on that master fail with {@code JOURNAL_NOT_REPLICATED}.
   */
  public Future<Long> fewestReplicas() {
    return diagnostics.fewestReplicas();
  }

  /** INFO commandstats as a map from command name to calls, for the benchmark. */
  public Future<Map<String, Long>> commandStats() {
    return diagnostics.commandStats();
  }

  /** One INFO section as a map of its fields. */
  @Override
  public Future<Map<String, String>> info(String section) {
    return diagnostics.info(section);
  }

  /** Commands this journal has sent to Redis since it was opened (each script run counts once). */
  public long commandsSent() {
    return redis.commandsSent();
  }

  /** Sends a raw command; for tools and tests that inspect the journal's Redis. */
  public Future<Response> send(Request request) {
    return redis.send(request);
  }

  // ---------------------------------------------------------------- helpers

  private Future<Response> run(Script script, List<?> keyList, List<?> args) {
    return redis.run(script, keyList, args);
  }

  private static String now() {
    return String.valueOf(System.currentTimeMillis());
  }
}
