package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * Reads a session's whole history (retention, export) in a number of round trips that does not
 * grow with its size, and decodes what Redis answers on a worker thread: a session of thousands of
 * calls is megabytes of JSON, which an event loop must not spend seconds parsing while other
 * sessions wait. Every call's record is read once, for the turn's results and for whether J9 lets
 * the turn go.
 */
final class HistoryReader {

  /** Events read for one session's history; a session that kept more is read in part, oldest first. */
  private static final int MAX_EVENTS = 1_000_000;

  private final Vertx vertx;
  private final RedisConnections redis;
  private final JournalKeys keys;
  private final RedisQueries queries;

  HistoryReader(Vertx vertx, RedisConnections redis, JournalKeys keys, RedisQueries queries) {
    this.vertx = vertx;
    this.redis = redis;
    this.keys = keys;
    this.queries = queries;
  }

  private <T> Future<T> decoded(Callable<T> work) {
    return vertx.executeBlocking(work, false);
  }

  /** The session's events in order, each with what the stream leaves to the hashes (as {@link RedisQueries#events}). */
  Future<List<JsonObject>> events(String sessionId) {
    return redis.send(Request.cmd(Command.XRANGE).arg(keys.events(sessionId)).arg("-").arg("+").arg("COUNT")
        .arg(MAX_EVENTS)).compose(r -> decoded(() -> {
          List<JsonObject> list = new ArrayList<>();
          for (Response entry : r) {
            StepEntries.expand(entry, null, list, MAX_EVENTS);
          }
          List<JsonObject> filled = new ArrayList<>();
          List<Request> reads = queries.storedDataReads(sessionId, list, filled);
          return new Pending(list, filled, reads);
        })).compose(p -> p.filled().isEmpty() ? Future.succeededFuture(p.events())
            : redis.pipeline(p.reads()).compose(answers -> decoded(() -> {
              RedisQueries.fillStoredData(p.filled(), answers);
              return p.events();
            })));
  }

  private record Pending(List<JsonObject> events, List<JsonObject> filled, List<Request> reads) {
  }

  /** The turns the events name (submitted or imported) and those in flight, in that order. */
  static Set<String> turnIds(List<JsonObject> events, Response inflight) {
    Set<String> turnIds = new LinkedHashSet<>();
    for (JsonObject e : events) {
      if ((EventType.TURN_SUBMITTED.wireName().equals(e.getString("type"))
          || EventType.TURN_IMPORTED.wireName().equals(e.getString("type")))
          && e.getString("turn") != null) {
        turnIds.add(e.getString("turn"));
      }
    }
    inflight.forEach(t -> turnIds.add(t.toString()));
    return turnIds;
  }

  /** Each turn the journal still holds, with its results (from its calls' records when it keeps no copy). */
  Future<List<SessionHistory.TurnEntry>> turns(String sessionId, Set<String> turnIds) {
    List<String> ids = new ArrayList<>(turnIds);
    List<Request> hashes = new ArrayList<>(ids.size());
    for (String turnId : ids) {
      hashes.add(Request.cmd(Command.HMGET).arg(keys.turn(sessionId, turnId)).arg("status").arg("spec")
          .arg("specHash").arg("submittedAt").arg("completedAt").arg("results"));
    }
    if (hashes.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    return redis.pipeline(hashes).compose(turnReplies -> decoded(() -> {
      List<Turn> specs = new ArrayList<>(ids.size());
      List<Request> calls = new ArrayList<>();
      for (Response r : turnReplies) {
        Turn turn = r.get(1) == null ? null : Turn.fromJson(new JsonObject(r.get(1).toString()));
        specs.add(turn);
        if (turn != null) {
          for (String call : keys.calls(sessionId, turn)) {
            calls.add(Request.cmd(Command.HMGET).arg(call).arg("record").arg("approvalStatus"));
          }
        }
      }
      return new TurnReads(turnReplies, specs, calls);
    })).compose(read -> (read.calls().isEmpty() ? Future.succeededFuture(List.<Response>of())
        : redis.pipeline(read.calls()))
        .compose(callReplies -> decoded(() -> entries(sessionId, ids, read.turns(), read.specs(), callReplies))));
  }

  private record TurnReads(List<Response> turns, List<Turn> specs, List<Request> calls) {
  }

  private static List<SessionHistory.TurnEntry> entries(String sessionId, List<String> ids, List<Response> turnReplies,
                                                        List<Turn> specs, List<Response> callReplies) {
    List<SessionHistory.TurnEntry> list = new ArrayList<>(ids.size());
    int next = 0;
    for (int t = 0; t < ids.size(); t++) {
      Turn turn = specs.get(t);
      Response r = turnReplies.get(t);
      if (turn == null) {
        continue;
      }
      String status = r.get(0).toString();
      boolean completed = "completed".equals(status);
      boolean removable = completed;
      List<CallResult> records = new ArrayList<>(turn.calls().size());
      for (int c = 0; c < turn.calls().size(); c++, next++) {
        Response call = callReplies.get(next);
        Response record = call.get(0);
        CallResult parsed = record == null ? null : CallResult.fromJson(new JsonObject(record.toString()));
        removable &= parsed != null && !"pending".equals(str(call.get(1))) && parsed.outcome() != Outcome.OUTCOME_UNKNOWN;
        records.add(parsed);
      }
      TurnResult results = null;
      if (completed) {
        results = r.get(5) != null ? TurnResult.fromJson(new JsonObject(r.get(5).toString()))
            : fromRecords(sessionId, ids.get(t), records);
      }
      list.add(new SessionHistory.TurnEntry(ids.get(t), status, new JsonObject(r.get(1).toString()), str(r.get(2)),
          num(r.get(3)), num(r.get(4)), results, removable));
    }
    return list;
  }

  /** A turn completed by a group commit keeps no copy of its results: its calls' records, in the model's order. */
  private static TurnResult fromRecords(String sessionId, String turnId, List<CallResult> records) {
    for (int i = 0; i < records.size(); i++) {
      if (records.get(i) == null) {
        throw new RatchetException(ErrorCode.JOURNAL_INCOMPLETE, "session " + sessionId + ": turn " + turnId
            + " is completed but call #" + i + " has no record");
      }
    }
    return new TurnResult(sessionId, turnId, records);
  }

  private static String str(Response r) {
    return r == null ? null : r.toString();
  }

  private static long num(Response r) {
    return r == null ? 0 : Long.parseLong(r.toString());
  }
}
