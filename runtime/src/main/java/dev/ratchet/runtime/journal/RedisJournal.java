package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ApprovalRecord;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.impl.CanonicalJson;
import dev.ratchet.runtime.journal.LuaScripts.Script;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The Redis journal: every step of every session, appended by one Lua script per state transition,
 * each fenced by the session owner's epoch (J4). Safe to share between sessions and threads. Beyond
 * {@link SessionJournal}, it answers what only Redis knows: {@link #persistence()}, {@link #info},
 * {@link #commandStats()} and raw commands ({@link #send}), for the CLI, the benchmark and tests.
 */
public final class RedisJournal implements SessionJournal {

  /** How long a replaced client may finish the commands it still has before it is closed. */
  private static final long RETIRE_MILLIS = 30_000;
  /** At most one replacement of the client per this many milliseconds while Redis is unreachable. */
  private static final long REPLACE_EVERY_MILLIS = 1_000;

  private final Vertx vertx;
  private final JournalOptions options;
  private volatile Redis redis;
  private final AtomicLong replacedAt = new AtomicLong();
  private volatile boolean closed;
  private final JournalKeys keys;
  private final LuaScripts scripts;
  private final String redisUrl;
  private final java.util.concurrent.atomic.LongAdder commandsSent = new java.util.concurrent.atomic.LongAdder();
  /** Most commands one pipeline of the journal's own carries. */
  static final int PIPELINE = 512;
  /** Most commands in flight on one connection. */
  private static final int MAX_PIPELINED = 8 * 1024;

  private RedisJournal(Vertx vertx, JournalOptions options) {
    this.vertx = vertx;
    this.options = options;
    this.redis = createClient(vertx, options);
    this.keys = new JournalKeys(options.keyPrefix());
    this.scripts = new LuaScripts(() -> redis);
    this.redisUrl = options.redisUrl();
  }

  private static Redis createClient(Vertx vertx, JournalOptions options) {
    Redis pool = Redis.createClient(vertx, new RedisOptions()
        .setConnectionString(options.redisUrl())
        .setMaxPoolSize(options.maxPoolSize())
        .setMaxPoolWaiting(options.maxWaiting())
        // commands in flight on one connection; each pooled connection holds an array of this size
        // for as long as it lives, so it is sized for the largest pipeline, not for the pool's waiters
        .setMaxWaitingHandlers(Math.min(options.maxWaiting(), MAX_PIPELINED)));
    if (Boolean.getBoolean("ratchet.journal.pooledOnly")) {
      return pool;
    }
    Redis connector = Redis.createClient(vertx, new RedisOptions()
        .setConnectionString(options.redisUrl())
        .setMaxPoolSize(1024)
        .setMaxPoolWaiting(options.maxWaiting())
        .setMaxWaitingHandlers(Math.min(options.maxWaiting(), MAX_PIPELINED)));
    return new EventLoopRedis(vertx, pool, connector, Math.min(options.maxWaiting(), MAX_PIPELINED));
  }

  /** Connects and loads the journal's scripts. */
  public static Future<RedisJournal> open(Vertx vertx, JournalOptions options) {
    RedisJournal journal = new RedisJournal(vertx, options);
    return journal.scripts.load()
        .map(journal)
        .recover(err -> {
          journal.close();
          return Future.failedFuture(unavailable("cannot open the journal at " + redactUrl(options.redisUrl()), err));
        });
  }

  @Override
  public Future<Void> close() {
    closed = true;
    redis.close();
    return Future.succeededFuture();
  }

  /**
   * Replaces the pooled client after Redis was unreachable. The client made by
   * {@code Redis.createClient} opens new connections on demand, but once its connections were cut
   * (Redis restarted or unreachable) its pool can stay wedged and refuse every later command with
   * "Connection pool reached max wait queue size" even when Redis is back. A fresh client opens
   * fresh connections; the old one is closed once the commands it still holds had time to finish.
   */
  private void replaceClient() {
    long now = System.currentTimeMillis();
    long last = replacedAt.get();
    if (closed || now - last < REPLACE_EVERY_MILLIS || !replacedAt.compareAndSet(last, now)) {
      return;
    }
    Redis old = redis;
    redis = createClient(vertx, options);
    vertx.setTimer(RETIRE_MILLIS, t -> old.close());
  }

  /** The Redis URL with any password hidden. */
  @Override
  public String describe() {
    return redactUrl(redisUrl);
  }

  // ---------------------------------------------------------------- session ownership

  /** Takes ownership of a session and returns its new fencing epoch. */
  @Override
  public Future<Long> claim(String sessionId, String owner) {
    return run(Script.CLAIM, List.of(keys.meta(sessionId), keys.events(sessionId)),
        List.of(owner, now())).map(Response::toLong);
  }

  /**
   * Takes ownership of a session (a new fencing epoch, as {@link #claim}) and loads the turns it
   * holds in flight with each call's state, in two round trips: the claim answers the in-flight
   * turns in the same script, then every call's state is read at once. Sessions starting together
   * on one event loop (recovery) share that loop's connection, so their steps leave pipelined.
   */
  @Override
  public Future<ClaimedSession> claimAndLoad(String sessionId, String owner) {
    return run(Script.CLAIM_AND_LOAD, List.of(keys.meta(sessionId), keys.events(sessionId), keys.inflight(sessionId)),
        List.of(owner, now(), keys.turn(sessionId, ""))).compose(r -> {
          long epoch = r.get(0).toLong();
          String caller = r.get(1) == null || r.get(1).toString().isEmpty() ? null : r.get(1).toString();
          List<Turn> turns = new ArrayList<>();
          List<Long> submitted = new ArrayList<>();
          for (int i = 2; i + 2 < r.size(); i += 3) {
            turns.add(Turn.fromJson(new JsonObject(r.get(i + 1).toString())));
            submitted.add(r.get(i + 2).toLong());
          }
          return withCallStates(sessionId, turns, submitted).map(list -> new ClaimedSession(epoch, caller, list));
        });
  }

  /** The turns with each call's state, read in one go (the reads leave pipelined), oldest turn first. */
  private Future<List<InflightTurn>> withCallStates(String sessionId, List<Turn> turns, List<Long> submitted) {
    List<String> callIds = new ArrayList<>();
    List<Request> states = new ArrayList<>();
    for (Turn turn : turns) {
      for (int c = 0; c < turn.calls().size(); c++) {
        String callId = turn.callId(sessionId, c).value();
        callIds.add(callId);
        states.add(callStateRequest(sessionId, callId));
      }
    }
    // pipelined in pieces: a session with thousands of calls in flight must not overflow one
    // connection's queue of waiting commands when it resumes
    return pipeline(states).map(cf -> {
      List<InflightTurn> list = new ArrayList<>(turns.size());
      int next = 0;
      for (int t = 0; t < turns.size(); t++) {
        Map<String, CallState> calls = new LinkedHashMap<>();
        for (int c = 0; c < turns.get(t).calls().size(); c++, next++) {
          CallState state = callStateOf(callIds.get(next), cf.get(next));
          calls.put(state.callId(), state);
        }
        list.add(new InflightTurn(turns.get(t), submitted.get(t), calls));
      }
      list.sort((x, y) -> Long.compare(x.submittedAt(), y.submittedAt()));
      return list;
    });
  }

  @Override
  public Future<Long> currentEpoch(String sessionId) {
    return send(Request.cmd(Command.HGET).arg(keys.meta(sessionId)).arg("epoch"))
        .map(r -> r == null ? 0L : r.toLong());
  }

  // ---------------------------------------------------------------- turns

  @Override
  public Future<SubmitAnswer> submitTurn(String sessionId, long epoch, String agent, String callerId, String creator,
                                         Turn turn, boolean index, CallStart firstWrite) {
    JsonObject spec = turn.toJson();
    String encodedSpec = spec.encode();
    String specHash = CanonicalJson.sha256Hex(CanonicalJson.encode(spec));
    String now = now();
    List<String> keyList = new ArrayList<>(5);
    keyList.add(keys.meta(sessionId));
    keyList.add(keys.events(sessionId));
    keyList.add(keys.turn(sessionId, turn.turnId()));
    keyList.add(keys.inflight(sessionId));
    List<String> args = new ArrayList<>(9);
    args.add(String.valueOf(epoch));
    args.add(turn.turnId());
    args.add(encodedSpec);
    args.add(specHash);
    args.add(agent);
    args.add(now);
    args.add(callerId == null ? "" : callerId);
    args.add(creator == null ? "" : creator);
    if (firstWrite != null) {
      keyList.add(keys.call(sessionId, firstWrite.callId().value()));
      args.add(StepEntries.field("call.started", firstWrite.callId().value()));
      args.add(String.valueOf(firstWrite.attempt()));
      args.add(firstWrite.data().encode());
    }
    Future<Response> reply;
    if (index) {
      // the recovery index is written before the turn, in the same pipeline: one round trip, and a
      // crash can leave an index entry without a turn but never a turn that recovery cannot find
      List<Request> pipeline = List.of(
          Request.cmd(Command.SADD).arg(keys.activeSessions()).arg(sessionId),
          Request.cmd(Command.ZADD).arg(keys.recentSessions()).arg(now).arg(sessionId),
          scripts.request(Script.SUBMIT_TURN, keyList, args));
      commandsSent.add(pipeline.size());
      reply = redis.batch(pipeline)
          .map(replies -> replies.get(2))
          .recover(err -> {
            String msg = pipelinedError(err);
            if (msg.startsWith("NOSCRIPT")) {
              return run(Script.SUBMIT_TURN, keyList, args);
            }
            return Future.failedFuture(failure(msg.equals(String.valueOf(err.getMessage())) ? err
                : new PipelinedError(msg, err)));
          });
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
        case "completed":
          // a turn completed by a group commit answers from its calls' records
          return r.get(1).toString().isEmpty()
              ? turnResult(sessionId, turn.turnId()).map(results -> new SubmitAnswer(SubmitAnswer.Status.COMPLETED, results))
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
    List<String> records = new ArrayList<>(result.calls().size());
    result.calls().forEach(c -> records.add(RecordText.full(c, null)));
    String results = RecordText.turnResult(result.sessionId(), result.turnId(), records);
    return run(Script.TURN_COMPLETED,
        List.of(keys.meta(sessionId), keys.events(sessionId), keys.turn(sessionId, result.turnId()),
            keys.inflight(sessionId)),
        List.of(String.valueOf(epoch), result.turnId(), results, now(), RecordText.turnSummary(result)))
        .compose(r -> !"done".equals(r.get(0).toString()) ? Future.succeededFuture(result)
            : r.get(1) == null || r.get(1).toString().isEmpty() ? turnResult(sessionId, result.turnId())
            : Future.succeededFuture(TurnResult.fromJson(new JsonObject(r.get(1).toString()))));
  }

  /** A completed turn's results, or null when the turn is unknown or still running. */
  @Override
  public Future<TurnResult> turnResult(String sessionId, String turnId) {
    return send(Request.cmd(Command.HMGET).arg(keys.turn(sessionId, turnId)).arg("status").arg("results").arg("spec"))
        .compose(r -> {
          if (r.get(0) == null || !"completed".equals(r.get(0).toString())) {
            return Future.succeededFuture(null);
          }
          if (r.get(1) != null) {
            return Future.succeededFuture(TurnResult.fromJson(new JsonObject(r.get(1).toString())));
          }
          return resultsFromRecords(sessionId, Turn.fromJson(new JsonObject(r.get(2).toString())));
        });
  }

  /**
   * The results of a turn completed by a group commit, which keeps no copy of its calls' records:
   * the records of its calls in the model's order, read in one pipeline.
   */
  private Future<TurnResult> resultsFromRecords(String sessionId, Turn turn) {
    List<Request> reads = new ArrayList<>(turn.calls().size());
    for (String call : keys.calls(sessionId, turn)) {
      reads.add(Request.cmd(Command.HGET).arg(call).arg("record"));
    }
    return pipeline(reads).compose(replies -> {
      List<CallResult> calls = new ArrayList<>(replies.size());
      for (int i = 0; i < replies.size(); i++) {
        if (replies.get(i) == null) {
          return Future.failedFuture(new RatchetException("JOURNAL_INCOMPLETE", "session " + sessionId + ": turn "
              + turn.turnId() + " is completed but call #" + i + " has no record"));
        }
        calls.add(CallResult.fromJson(new JsonObject(replies.get(i).toString())));
      }
      return Future.succeededFuture(new TurnResult(sessionId, turn.turnId(), calls));
    });
  }

  /** Turns journaled but not completed, with each call's state: what recovery resumes. */
  @Override
  public Future<List<InflightTurn>> inflightTurns(String sessionId) {
    return send(Request.cmd(Command.SMEMBERS).arg(keys.inflight(sessionId))).compose(members -> {
      List<Future<Response>> specs = new ArrayList<>();
      for (Response m : members) {
        specs.add(send(Request.cmd(Command.HMGET).arg(keys.turn(sessionId, m.toString())).arg("spec")
            .arg("submittedAt")));
      }
      return Future.all(specs).compose(cf -> {
        List<Turn> turns = new ArrayList<>();
        List<Long> submitted = new ArrayList<>();
        for (int i = 0; i < cf.size(); i++) {
          Response r = cf.resultAt(i);
          if (r.get(0) != null) {
            turns.add(Turn.fromJson(new JsonObject(r.get(0).toString())));
            submitted.add(r.get(1) == null ? 0 : r.get(1).toLong());
          }
        }
        return withCallStates(sessionId, turns, submitted);
      });
    });
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
        List.of(keys.meta(sessionId), keys.events(sessionId), keys.call(sessionId, callId.value())),
        List.of(String.valueOf(epoch), turnId, callId.value(), String.valueOf(attempt), now(), data.encode()))
        .map(r -> "done".equals(r.get(0).toString()) ? CallResult.fromJson(new JsonObject(r.get(1).toString())) : null);
  }

  /** Journals a terminal outcome once (J1); answers the record that is journaled, which may be an earlier one. */
  @Override
  public Future<CallResult> callCompleted(String sessionId, long epoch, String turnId, CallResult record) {
    String resultText = record.result() == null ? null : Json.encode(record.result());
    return run(Script.CALL_COMPLETED,
        List.of(keys.meta(sessionId), keys.events(sessionId), keys.call(sessionId, record.callId().value())),
        List.of(String.valueOf(epoch), turnId, record.callId().value(), record.outcome().wireName(),
            RecordText.full(record, resultText), now(), RecordText.completedEvent(record, resultText)))
        .map(r -> "done".equals(r.get(0).toString()) ? CallResult.fromJson(new JsonObject(r.get(1).toString())) : record);
  }

  @Override
  public Future<CompletedCalls> callsCompleted(String sessionId, long epoch, String turnId, List<CallResult> records,
                                               TurnResult turnResult, CallStart nextWrite,
                                               Function<CallResult, String> resultTexts) {
    List<String> keyList = new ArrayList<>(5 + records.size());
    keyList.add(keys.meta(sessionId));
    keyList.add(keys.events(sessionId));
    keyList.add(keys.turn(sessionId, turnId));
    keyList.add(keys.inflight(sessionId));
    List<String> args = new ArrayList<>(8 + records.size() * 4);
    args.add(String.valueOf(epoch));
    args.add(turnId);
    args.add(now());
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
      keyList.add(keys.call(sessionId, nextWrite.callId().value()));
      args.add(StepEntries.field("call.started", nextWrite.callId().value()));
      args.add(String.valueOf(nextWrite.attempt()));
      args.add(nextWrite.data().encode());
    }
    for (CallResult record : records) {
      keyList.add(keys.call(sessionId, record.callId().value()));
      String resultText = RecordText.resultText(record, resultTexts.apply(record));
      args.add(StepEntries.field("call.completed", record.callId().value()));
      args.add(RecordText.completedEvent(record, resultText));
      args.add(RecordText.full(record, resultText));
      args.add(record.outcome().wireName());
    }
    if (turnResult != null) {
      // the script checks that each other call of the turn has a record (J7)
      Set<String> inStep = new HashSet<>();
      records.forEach(r -> inStep.add(r.callId().value()));
      for (CallResult call : turnResult.calls()) {
        if (!inStep.contains(call.callId().value())) {
          keyList.add(keys.call(sessionId, call.callId().value()));
        }
      }
    }
    return run(Script.CALLS_COMPLETED, keyList, args).map(r -> {
      boolean turnDone = r.get(0).toInteger() == 1;
      boolean started = r.get(1).toInteger() == 1;
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
    return run(Script.APPEND_EVENT, List.of(keys.meta(sessionId), keys.events(sessionId)),
        List.of(String.valueOf(epoch), type, turnId == null ? "" : turnId, callId == null ? "" : callId, now(),
            data.encode())).mapEmpty();
  }

  @Override
  public Future<CallState> callState(String sessionId, CallId callId) {
    return send(callStateRequest(sessionId, callId.value())).map(r -> callStateOf(callId.value(), r));
  }

  private Request callStateRequest(String sessionId, String callId) {
    return Request.cmd(Command.HMGET).arg(keys.call(sessionId, callId))
        .arg("state").arg("record").arg("attempts").arg("approvalStatus").arg("approvalRequest")
        .arg("approver").arg("approvalReason").arg("decidedAt").arg("argumentsHash").arg("expiresAt")
        .arg("requestedAt");
  }

  private static CallState callStateOf(String callId, Response r) {
    // a call completed by this release has its record and no state field
    if (r.get(0) == null && r.get(1) == null) {
      return CallState.fresh(callId);
    }
    CallResult record = r.get(1) == null ? null : CallResult.fromJson(new JsonObject(r.get(1).toString()));
    ApprovalRecord approval = null;
    if (r.get(3) != null) {
      JsonObject request = new JsonObject(r.get(4).toString());
      approval = new ApprovalRecord(r.get(3).toString(), request.getString("askedBecause"),
          r.get(10) == null ? 0 : r.get(10).toLong(), str(r.get(5)), str(r.get(6)),
          r.get(7) == null ? 0 : r.get(7).toLong());
    }
    return new CallState(callId, record != null ? "done" : r.get(0).toString(), record,
        r.get(2) == null ? 0 : r.get(2).toInteger(), approval, str(r.get(8)),
        r.get(9) == null ? 0 : r.get(9).toLong());
  }

  // ---------------------------------------------------------------- approvals

  /**
   * Journals an approval request (J5) and indexes it for the inbox. Answers the existing approval
   * status if the call already asked (for example before a restart), else "pending".
   */
  @Override
  public Future<String> approvalRequested(long epoch, ApprovalRequest request) {
    String sessionId = request.sessionId();
    String member = approvalMember(sessionId, request.callId().value());
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
                                                String status, String approver, String reason) {
    return run(Script.APPROVAL_DECIDED,
        List.of(keys.meta(sessionId), keys.events(sessionId), keys.call(sessionId, callId.value())),
        List.of(callId.value(), argumentsHash, status, approver, reason == null ? "" : reason, now()))
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
              .arg(approvalMember(sessionId, callId.value()))).map(decision);
        });
  }

  /** Pending approvals across sessions, oldest first. */
  @Override
  public Future<List<ApprovalRequest>> pendingApprovals(int limit) {
    return send(Request.cmd(Command.ZRANGE).arg(keys.pendingApprovals()).arg(0).arg(Math.max(0, limit - 1)))
        .compose(members -> {
          List<Future<ApprovalRequest>> loads = new ArrayList<>();
          for (Response m : members) {
            String[] parts = m.toString().split("\n", 2);
            if (parts.length == 2) {
              loads.add(pendingRequest(parts[0], parts[1]));
            }
          }
          return Future.all(loads).map(cf -> {
            List<ApprovalRequest> list = new ArrayList<>();
            for (int i = 0; i < cf.size(); i++) {
              if (cf.resultAt(i) != null) {
                list.add(cf.resultAt(i));
              }
            }
            return list;
          });
        });
  }

  private Future<ApprovalRequest> pendingRequest(String sessionId, String callId) {
    return send(Request.cmd(Command.HMGET).arg(keys.call(sessionId, callId)).arg("approvalStatus")
        .arg("approvalRequest")).compose(r -> {
          if (r.get(0) == null) {
            // indexed just before its request is journaled; not listable yet
            return Future.succeededFuture(null);
          }
          if (!"pending".equals(r.get(0).toString())) {
            // the index lags the journal after a crash between the decision and the index update
            return send(Request.cmd(Command.ZREM).arg(keys.pendingApprovals()).arg(approvalMember(sessionId, callId)))
                .map((ApprovalRequest) null);
          }
          return Future.succeededFuture(ApprovalRequest.fromJson(new JsonObject(r.get(1).toString())));
        });
  }

  private static String approvalMember(String sessionId, String callId) {
    return sessionId + "\n" + callId;
  }

  // ---------------------------------------------------------------- reconciliation

  /**
   * Records a person's finding for an {@code outcome_unknown} call. Fails with code
   * {@code UNKNOWN_CALL} or {@code NOT_UNKNOWN} when the call is not open to reconciliation.
   */
  @Override
  public Future<CallResult> reconcile(String sessionId, CallId callId, Outcome outcome, String who, String note) {
    if (outcome == Outcome.OUTCOME_UNKNOWN) {
      return Future.failedFuture(new RatchetException("INVALID_REQUEST", "reconcile to succeeded or failed"));
    }
    return send(Request.cmd(Command.HMGET).arg(keys.call(sessionId, callId.value())).arg("record").arg("turn"))
        .compose(call -> {
          if (call.get(0) == null) {
            return Future.failedFuture(new RatchetException("UNKNOWN_CALL", "no completed call " + callId
                + " in session " + sessionId));
          }
          CallResult r = CallResult.fromJson(new JsonObject(call.get(0).toString()));
          CallResult updated = new CallResult(r.index(), r.callId(), r.tool(), r.modelCallId(), r.effectClass(),
              outcome, r.result(), note == null ? r.error() : r.error() == null ? "reconciled: " + note
              : r.error() + " (reconciled: " + note + ")", r.attempts(), r.skipped(), r.truncated(), r.approval(),
              r.durationMillis(), who);
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
              return Future.failedFuture(new RatchetException("UNKNOWN_CALL", "no completed call " + callId));
            }
            return Future.failedFuture(new RatchetException("NOT_UNKNOWN", "call " + callId + " ended "
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
    return batch(indexes)
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
    return batch(indexes)
        .compose(v -> run(Script.MODEL_RESPONSE, loopKeys(sessionId),
            List.of(String.valueOf(epoch), String.valueOf(step), entry.encode(), now, eventData.encode(),
                turnId == null ? "" : turnId)))
        .compose(r -> {
          String status = r.get(0).toString();
          if ("out_of_order".equals(status)) {
            return Future.failedFuture(new RatchetException("STEP_OUT_OF_ORDER", "session " + sessionId
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

  /** A session's conversation entries in order ({@code type}: user, model, end). */
  @Override
  public Future<List<JsonObject>> conversation(String sessionId) {
    return send(Request.cmd(Command.LRANGE).arg(keys.conversation(sessionId)).arg(0).arg(-1)).map(r -> {
      List<JsonObject> list = new ArrayList<>();
      if (r != null) {
        r.forEach(e -> list.add(new JsonObject(e.toString())));
      }
      return list;
    });
  }

  private List<String> loopKeys(String sessionId) {
    return List.of(keys.meta(sessionId), keys.events(sessionId), keys.loop(sessionId), keys.conversation(sessionId));
  }

  // ---------------------------------------------------------------- reading the journal

  /**
   * A session's step events in order, each {@code {id, type, turn, call, at, data}}: at most
   * {@code count} of them after the event {@code afterId} (from the start when null). Fewer than
   * {@code count} means there are no more for now.
   */
  @Override
  public Future<List<JsonObject>> events(String sessionId, String afterId, int count) {
    StepEntries.After after = StepEntries.After.of(afterId);
    String start = after == null ? "-" : after.rangeStart();
    int entries = after == null ? count : after.entriesFor(count);
    return send(Request.cmd(Command.XRANGE).arg(keys.events(sessionId)).arg(start).arg("+").arg("COUNT").arg(entries))
        .compose(r -> {
          List<JsonObject> list = new ArrayList<>();
          for (Response entry : r) {
            if (list.size() >= count) {
              break;
            }
            StepEntries.expand(entry, after, list, count);
          }
          return withStoredData(sessionId, list);
        });
  }

  /**
   * The events with what the stream leaves to the session's hashes, read in one pipeline: each
   * {@code turn.submitted} event gets its turn's spec, and each {@code call.completed} event the
   * call's record without its result, as first journaled (also after a reconciliation changed it).
   * Events that earlier releases journaled whole keep their data.
   */
  private Future<List<JsonObject>> withStoredData(String sessionId, List<JsonObject> events) {
    List<JsonObject> filled = new ArrayList<>();
    List<Request> reads = new ArrayList<>();
    for (JsonObject e : events) {
      if ("turn.submitted".equals(e.getString("type")) && !e.containsKey("data") && e.getString("turn") != null) {
        filled.add(e);
        reads.add(Request.cmd(Command.HGET).arg(keys.turn(sessionId, e.getString("turn"))).arg("spec"));
      } else if (StepEntries.needsRecord(e)) {
        filled.add(e);
        reads.add(Request.cmd(Command.HMGET).arg(keys.call(sessionId, e.getString("call"))).arg("completedRecord")
            .arg("record"));
      }
    }
    if (filled.isEmpty()) {
      return Future.succeededFuture(events);
    }
    return pipeline(reads).map(answers -> {
      for (int i = 0; i < filled.size(); i++) {
        JsonObject e = filled.get(i);
        Response r = answers.get(i);
        if ("turn.submitted".equals(e.getString("type"))) {
          e.put("data", r == null ? new JsonObject() : new JsonObject(r.toString()));
        } else {
          Response first = r.get(0) != null ? r.get(0) : r.get(1);
          e.put("data", StepEntries.completedData(e.getJsonObject("data"), first == null ? null : first.toString()));
        }
      }
      return events;
    });
  }

  /**
   * Session metadata: agent, epoch, owner, createdAt, updatedAt, caller and creator (each when it
   * has one); empty when unknown.
   */
  @Override
  public Future<JsonObject> sessionInfo(String sessionId) {
    return send(Request.cmd(Command.HMGET).arg(keys.meta(sessionId)).arg("agent").arg("epoch").arg("owner")
        .arg("createdAt").arg("updatedAt").arg("caller").arg("creator")).map(r -> {
          JsonObject json = new JsonObject();
          String[] names = {"agent", "epoch", "owner", "createdAt", "updatedAt", "caller", "creator"};
          for (int i = 0; i < names.length; i++) {
            if (r.get(i) != null) {
              String v = r.get(i).toString();
              json.put(names[i], i == 1 || i == 3 || i == 4 ? (Object) Long.parseLong(v) : v);
            }
          }
          return json;
        });
  }

  /** Sessions by last activity, most recent first. */
  @Override
  public Future<List<String>> recentSessions(int offset, int limit) {
    return send(Request.cmd(Command.ZREVRANGE).arg(keys.recentSessions()).arg(offset).arg(offset + limit - 1))
        .map(r -> {
          List<String> list = new ArrayList<>();
          r.forEach(m -> list.add(m.toString()));
          return list;
        });
  }

  /**
   * The agent of each of these sessions (sessions the journal does not know are left out), read in
   * pipelines of {@value #PIPELINE} commands: one round trip per pipeline, not per session.
   */
  @Override
  public Future<Map<String, String>> sessionAgents(List<String> sessionIds) {
    List<Future<List<Response>>> chunks = new ArrayList<>();
    for (int from = 0; from < sessionIds.size(); from += PIPELINE) {
      List<Request> reads = new ArrayList<>();
      for (String id : sessionIds.subList(from, Math.min(sessionIds.size(), from + PIPELINE))) {
        reads.add(Request.cmd(Command.HGET).arg(keys.meta(id)).arg("agent"));
      }
      chunks.add(pipeline(reads));
    }
    return Future.all(chunks).map(cf -> {
      Map<String, String> agents = new HashMap<>();
      int i = 0;
      for (int c = 0; c < cf.size(); c++) {
        for (Response r : cf.<List<Response>>resultAt(c)) {
          String id = sessionIds.get(i++);
          if (r != null) {
            agents.put(id, r.toString());
          }
        }
      }
      return agents;
    });
  }

  /** Sessions that may have turns in flight. */
  @Override
  public Future<List<String>> activeSessions() {
    return send(Request.cmd(Command.SMEMBERS).arg(keys.activeSessions())).map(r -> {
      List<String> list = new ArrayList<>();
      r.forEach(m -> list.add(m.toString()));
      return list;
    });
  }

  /** Drops a session from the recovery set; called when it has nothing in flight. */
  @Override
  public Future<Void> markIdle(String sessionId) {
    return send(Request.cmd(Command.SREM).arg(keys.activeSessions()).arg(sessionId)).mapEmpty();
  }

  @Override
  public Future<Void> reachable() {
    return send(Request.cmd(Command.PING)).mapEmpty();
  }

  /** Whether Redis answers and accepts writes. */
  @Override
  public Future<Void> ping() {
    return send(Request.cmd(Command.SET).arg(keys.session("health") + ":ping").arg(now()).arg("PX").arg(60_000))
        .mapEmpty();
  }

  /** What the server guarantees for an acknowledged step: AOF on/off and its fsync policy. */
  public Future<Persistence> persistence() {
    Future<Response> aof = send(Request.cmd(Command.CONFIG).arg("GET").arg("appendonly"));
    Future<Response> fsync = send(Request.cmd(Command.CONFIG).arg("GET").arg("appendfsync"));
    Future<Response> info = send(Request.cmd(Command.INFO).arg("server"));
    Future<Response> maxmemory = send(Request.cmd(Command.CONFIG).arg("GET").arg("maxmemory"));
    Future<Response> policy = send(Request.cmd(Command.CONFIG).arg("GET").arg("maxmemory-policy"));
    return Future.all(List.of(aof, fsync, info, maxmemory, policy)).map(cf -> {
      String limit = configValue(maxmemory.result());
      return new Persistence("yes".equals(configValue(aof.result())), configValue(fsync.result()),
          infoField(info.result(), "redis_version"), limit == null || limit.isEmpty() ? 0 : Long.parseLong(limit),
          configValue(policy.result()));
    });
  }

  /** INFO commandstats as a map from command name to calls, for the benchmark. */
  public Future<Map<String, Long>> commandStats() {
    return send(Request.cmd(Command.INFO).arg("commandstats")).map(r -> {
      Map<String, Long> map = new HashMap<>();
      for (String line : r.toString().split("\r?\n")) {
        if (line.startsWith("cmdstat_")) {
          String name = line.substring(8, line.indexOf(':'));
          for (String part : line.substring(line.indexOf(':') + 1).split(",")) {
            if (part.startsWith("calls=")) {
              map.put(name, Long.parseLong(part.substring(6)));
            }
          }
        }
      }
      return map;
    });
  }

  /** One INFO section as a map of its fields. */
  @Override
  public Future<Map<String, String>> info(String section) {
    return send(Request.cmd(Command.INFO).arg(section)).map(r -> {
      Map<String, String> map = new HashMap<>();
      for (String line : r.toString().split("\r?\n")) {
        int colon = line.indexOf(':');
        if (colon > 0 && !line.startsWith("#")) {
          map.put(line.substring(0, colon), line.substring(colon + 1).trim());
        }
      }
      return map;
    });
  }

  /** Commands this journal has sent to Redis since it was opened (each script run counts once). */
  public long commandsSent() {
    return commandsSent.sum();
  }

  /** Sends a raw command; for tools and tests that inspect the journal's Redis. */
  public Future<Response> send(Request request) {
    commandsSent.increment();
    return redis.send(request).recover(err -> Future.failedFuture(failure(err)));
  }

  // ---------------------------------------------------------------- helpers

  private Future<Void> batch(List<Request> requests) {
    return pipeline(requests).mapEmpty();
  }

  /**
   * The requests in one round trip, or in pipelines of {@value #PIPELINE} one after another when
   * there are more; answers their replies in order. One batch larger than the client's queue of
   * waiting commands would fail whole, every time, as if Redis were unreachable.
   */
  private Future<List<Response>> pipeline(List<Request> requests) {
    if (requests.size() <= PIPELINE) {
      commandsSent.add(requests.size());
      return redis.batch(requests).recover(err -> Future.failedFuture(failure(err)));
    }
    List<Response> replies = new ArrayList<>(requests.size());
    Future<List<Response>> chain = Future.succeededFuture(replies);
    for (int from = 0; from < requests.size(); from += PIPELINE) {
      List<Request> chunk = requests.subList(from, Math.min(requests.size(), from + PIPELINE));
      chain = chain.compose(acc -> pipeline(chunk).map(part -> {
        acc.addAll(part);
        return acc;
      }));
    }
    return chain;
  }

  private Future<Response> run(Script script, List<String> keyList, List<String> args) {
    commandsSent.increment();
    return scripts.run(script, keyList, args).recover(err -> Future.failedFuture(failure(err)));
  }

  /** Classifies a failed command; when Redis could not be reached, the next commands go through a fresh client. */
  private Throwable failure(Throwable err) {
    Throwable classified = classify(err);
    if (classified instanceof RatchetException && "JOURNAL_UNAVAILABLE".equals(((RatchetException) classified).code())) {
      replaceClient();
    }
    return classified;
  }

  private static final java.util.regex.Pattern TRANSIENT_SERVER_STATE =
      java.util.regex.Pattern.compile("(LOADING|BUSY|MASTERDOWN|TRYAGAIN|CLUSTERDOWN|READONLY|CONNECTION_CLOSED)\\b");

  /** A batch fails whole with {@code ERR [index] message}; the message is what the failing command said. */
  private static String pipelinedError(Throwable err) {
    String msg = String.valueOf(err.getMessage());
    java.util.regex.Matcher m = PIPELINED.matcher(msg);
    return m.matches() ? m.group(1) : msg;
  }

  private static final java.util.regex.Pattern PIPELINED = java.util.regex.Pattern.compile("ERR \\[\\d+\\] (.*)",
      java.util.regex.Pattern.DOTALL);

  /** A server error reply found inside a failed pipeline. */
  private static final class PipelinedError extends RuntimeException {
    PipelinedError(String message, Throwable cause) {
      super(message, cause, false, false);
    }
  }

  private static Throwable classify(Throwable err) {
    if (err instanceof RatchetException) {
      return err;
    }
    String msg = String.valueOf(err.getMessage());
    if (msg.startsWith("FENCED")) {
      return new RatchetException("FENCED", "this node no longer owns the session: " + msg.substring(6).trim());
    }
    if (msg.startsWith("AGENT_MISMATCH")) {
      return new RatchetException("AGENT_MISMATCH", msg.substring(15).trim());
    }
    if (msg.startsWith("CALLER_MISMATCH")) {
      return new RatchetException("CALLER_MISMATCH", msg.substring(16).trim());
    }
    if (TRANSIENT_SERVER_STATE.matcher(msg).lookingAt()) {
      // the server cannot serve yet (loading its AOF after a restart, a failover, a slow script), or the
      // client failed the command because its connection closed under it
      return unavailable("the journal (Redis) cannot serve commands yet", err);
    }
    if (err instanceof io.vertx.redis.client.impl.types.ErrorType || err instanceof PipelinedError) {
      return new RatchetException("JOURNAL_ERROR", "the journal refused a step: " + msg);
    }
    return unavailable("the journal (Redis) is unreachable", err);
  }

  private static RatchetException unavailable(String message, Throwable cause) {
    return new RatchetException("JOURNAL_UNAVAILABLE", message + ": " + reason(cause), cause);
  }

  /**
   * What went wrong, in words: the first message in the chain of causes, else the error's kind
   * (Netty reports a connection closed under it without a message).
   */
  static String reason(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof java.nio.channels.ClosedChannelException) {
        return "the connection was closed";
      }
      String message = t.getMessage();
      // a wrapper's message is its cause's name: the cause says more
      if (message != null && !message.isBlank() && (t.getCause() == null || !message.equals(t.getCause().toString()))) {
        return message;
      }
    }
    return error.getClass().getName();
  }

  private static String configValue(Response r) {
    if (r == null) {
      return null;
    }
    // RESP3 answers CONFIG GET with a map, RESP2 with a [name, value] array
    if (r.type() == io.vertx.redis.client.ResponseType.MULTI && r.isMap()) {
      for (String key : r.getKeys()) {
        return r.get(key).toString();
      }
      return null;
    }
    return r.size() >= 2 && r.get(1) != null ? r.get(1).toString() : null;
  }

  private static String infoField(Response r, String field) {
    for (String line : r.toString().split("\r?\n")) {
      if (line.startsWith(field + ":")) {
        return line.substring(field.length() + 1).trim();
      }
    }
    return "?";
  }

  private static String str(Response r) {
    return r == null ? null : r.toString();
  }

  private static String now() {
    return String.valueOf(System.currentTimeMillis());
  }

  static String redactUrl(String url) {
    return url == null ? null : url.replaceAll("//([^:@/]*):[^@/]*@", "//$1:***@")
        .replaceAll("([?&]password=)[^&]*", "$1***");
  }
}
