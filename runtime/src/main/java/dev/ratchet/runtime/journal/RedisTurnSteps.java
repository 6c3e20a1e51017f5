package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.journal.LuaScripts.Script;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The Redis journal's steps of turns and calls (rules 1 and J1, J2, J7, J8): one fenced Lua script
 * each, their keys and arguments written as bytes once.
 */
record RedisTurnSteps(RedisConnections redis, JournalKeys keys, RedisQueries queries) implements TurnSteps {

  @Override
  public Future<SubmitAnswer> submitTurn(TurnSubmission submission) {
    String sessionId = submission.sessionId();
    Turn turn = submission.turn();
    CallStart firstWrite = submission.firstWrite();
    String specHash = TurnText.hash(turn);
    byte[] encodedSpec = TurnText.specBytes(turn, submission.catalogue(), submission.replyAddress());
    String now = now();
    List<Object> keyList = new ArrayList<>(7);
    keyList.add(keys.metaBytes(sessionId));
    keyList.add(keys.eventsBytes(sessionId));
    keyList.add(keys.turnBytes(sessionId, turn.turnId()));
    keyList.add(keys.inflightBytes(sessionId));
    keyList.add(keys.tombstones(sessionId));
    keyList.add(keys.expired(sessionId));
    List<Object> args = new ArrayList<>(11);
    args.add(submission.epoch());
    args.add(turn.turnId());
    args.add(encodedSpec);
    args.add(specHash);
    args.add(submission.agent());
    args.add(now);
    args.add(submission.callerId() == null ? "" : submission.callerId());
    args.add(submission.creator() == null ? "" : submission.creator());
    if (firstWrite != null) {
      keyList.add(keys.callBytes(sessionId, firstWrite.callId().value()));
      args.add(StepEntries.fieldBytes(EventType.CALL_STARTED.wireName(), firstWrite.callId().value()));
      args.add((long) firstWrite.attempt());
      args.add(RecordText.jsonBytes(firstWrite.data()));
    }
    Future<Response> reply;
    if (submission.index()) {
      // the recovery index is written before the turn, in the same pipeline: one round trip, and a
      // crash can leave an index entry without a turn but never a turn that recovery cannot find
      reply = redis.runAfter(List.of(
          Request.cmd(Command.SADD).arg(keys.activeSessions()).arg(sessionId),
          Request.cmd(Command.ZADD).arg(keys.recentSessions()).arg(now).arg(sessionId)),
          Script.SUBMIT_TURN, keyList, args);
    } else {
      reply = redis.run(Script.SUBMIT_TURN, keyList, args);
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
    return redis.run(Script.TURN_COMPLETED, turnKeys, args)
        .compose(r -> !"done".equals(r.get(0).toString()) ? Future.succeededFuture(result)
            : r.get(1) == null || r.get(1).toString().isEmpty() ? queries.turnResult(sessionId, result.turnId())
            : Future.succeededFuture(TurnResult.fromJson(new JsonObject(r.get(1).toString()))));
  }

  // ---------------------------------------------------------------- calls

  /**
   * Journals that an attempt is about to send its request. Answers the call's existing record
   * when it already has an outcome (then nothing may be sent), else null.
   */
  @Override
  public Future<CallResult> callStarted(String sessionId, long epoch, String turnId, CallStart start) {
    String callId = start.callId().value();
    return redis.run(Script.CALL_STARTED,
        List.of(keys.metaBytes(sessionId), keys.eventsBytes(sessionId), keys.callBytes(sessionId, callId)),
        List.of(epoch, turnId, callId, (long) start.attempt(), System.currentTimeMillis(),
            RecordText.jsonBytes(start.data())))
        .map(r -> "done".equals(r.get(0).toString()) ? CallResult.fromJson(new JsonObject(r.get(1).toString())) : null);
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
    return redis.run(Script.APPEND_EVENT, List.of(keys.metaBytes(sessionId), keys.eventsBytes(sessionId)),
        List.of(epoch, type, turnId == null ? "" : turnId, callId == null ? "" : callId, System.currentTimeMillis(),
            RecordText.jsonBytes(data))).mapEmpty();
  }

  private static String now() {
    return String.valueOf(System.currentTimeMillis());
  }
}
