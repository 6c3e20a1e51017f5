package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.CallStatus;
import dev.ratchet.runtime.ApprovalRecord;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.ratchet.runtime.journal.RedisConnections.PIPELINE;

/** The Redis journal's reads: plain commands and pipelines, no script; what {@link JournalQueries} answers. */
record RedisQueries(RedisConnections redis, JournalKeys keys) implements JournalQueries {

  @Override
  public Future<Long> currentEpoch(String sessionId) {
    return send(Request.cmd(Command.HGET).arg(keys.meta(sessionId)).arg("epoch"))
        .map(r -> r == null ? 0L : r.toLong());
  }

  /** The turns with each call's state, read in one go (the reads leave pipelined), oldest turn first. */
  Future<List<InflightTurn>> withCallStates(String sessionId, List<Turn> turns, List<Long> submitted,
                                            List<String> entries, List<JsonObject> specs) {
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
      Map<InflightTurn, String> entryOf = new java.util.IdentityHashMap<>();
      int next = 0;
      for (int t = 0; t < turns.size(); t++) {
        Map<String, CallState> calls = new LinkedHashMap<>();
        for (int c = 0; c < turns.get(t).calls().size(); c++, next++) {
          CallState state = callStateOf(callIds.get(next), cf.get(next));
          calls.put(state.callId(), state);
        }
        InflightTurn turn = new InflightTurn(turns.get(t), submitted.get(t), calls, Turn.catalogueOf(specs.get(t)),
            Turn.replyAddressOf(specs.get(t)));
        entryOf.put(turn, entries.get(t));
        list.add(turn);
      }
      // turns run in the order they were submitted; the stream entry orders two of one millisecond
      list.sort(java.util.Comparator.comparingLong(InflightTurn::submittedAt)
          .thenComparing(x -> StreamEntryId.of(entryOf.get(x))));
      return list;
    });
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

  @Override
  public Future<String> turnStatus(String sessionId, String turnId) {
    return send(Request.cmd(Command.HGET).arg(keys.turn(sessionId, turnId)).arg("status"))
        .map(r -> r == null ? null : r.toString());
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
          return Future.failedFuture(new RatchetException(ErrorCode.JOURNAL_INCOMPLETE, "session " + sessionId + ": turn "
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
      List<Future<Response>> reads = new ArrayList<>();
      for (Response m : members) {
        reads.add(send(Request.cmd(Command.HMGET).arg(keys.turn(sessionId, m.toString())).arg("spec")
            .arg("submittedAt").arg("entry")));
      }
      return Future.all(reads).compose(cf -> {
        List<Turn> turns = new ArrayList<>();
        List<Long> submitted = new ArrayList<>();
        List<String> entries = new ArrayList<>();
        List<JsonObject> specs = new ArrayList<>();
        for (int i = 0; i < cf.size(); i++) {
          Response r = cf.resultAt(i);
          if (r.get(0) != null) {
            JsonObject spec = new JsonObject(r.get(0).toString());
            turns.add(Turn.fromJson(spec));
            specs.add(spec);
            submitted.add(r.get(1) == null ? 0 : r.get(1).toLong());
            entries.add(r.get(2) == null ? "" : r.get(2).toString());
          }
        }
        return withCallStates(sessionId, turns, submitted, entries, specs);
      });
    });
  }

  @Override
  public Future<CallState> callState(String sessionId, CallId callId) {
    return send(callStateRequest(sessionId, callId.value())).map(r -> callStateOf(callId.value(), r));
  }

  private Request callStateRequest(String sessionId, String callId) {
    return Request.cmd(Command.HMGET).arg(keys.call(sessionId, callId))
        .arg("state").arg("record").arg("attempts").arg("approvalStatus").arg("approvalRequest")
        .arg("approver").arg("approvalReason").arg("decidedAt").arg("argumentsHash").arg("expiresAt")
        .arg("requestedAt").arg("startedAt").arg("editedArguments");
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
          r.get(7) == null ? 0 : r.get(7).toLong(),
          r.get(12) == null ? null : new JsonObject(r.get(12).toString()), r.get(12) == null ? null : str(r.get(8)));
    }
    return new CallState(callId, record != null ? CallStatus.DONE : CallStatus.fromWireName(r.get(0).toString()), record,
        r.get(2) == null ? 0 : r.get(2).toInteger(), approval, str(r.get(8)),
        r.get(9) == null ? 0 : r.get(9).toLong(), r.get(11) == null ? 0 : r.get(11).toLong());
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

  /** The approval request a call journaled, or null. */
  @Override
  public Future<ApprovalRequest> approvalRequest(String sessionId, CallId callId) {
    return approvalRequest(sessionId, callId.value());
  }

  Future<ApprovalRequest> approvalRequest(String sessionId, String callId) {
    return send(Request.cmd(Command.HGET).arg(keys.call(sessionId, callId)).arg("approvalRequest"))
        .map(r -> r == null ? null : ApprovalRequest.fromJson(new JsonObject(r.toString())));
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
   */
  private Future<List<JsonObject>> withStoredData(String sessionId, List<JsonObject> events) {
    List<JsonObject> filled = new ArrayList<>();
    List<Request> reads = storedDataReads(sessionId, events, filled);
    if (filled.isEmpty()) {
      return Future.succeededFuture(events);
    }
    return pipeline(reads).map(answers -> {
      fillStoredData(filled, answers);
      return events;
    });
  }

  /** The reads of what the stream leaves to the hashes, one per event added to {@code filled}. */
  List<Request> storedDataReads(String sessionId, List<JsonObject> events, List<JsonObject> filled) {
    List<Request> reads = new ArrayList<>();
    for (JsonObject e : events) {
      if (EventType.TURN_SUBMITTED.wireName().equals(e.getString("type")) && !e.containsKey("data") && e.getString("turn") != null) {
        filled.add(e);
        reads.add(Request.cmd(Command.HGET).arg(keys.turn(sessionId, e.getString("turn"))).arg("spec"));
      } else if (StepEntries.needsRecord(e)) {
        filled.add(e);
        reads.add(Request.cmd(Command.HMGET).arg(keys.call(sessionId, e.getString("call"))).arg("completedRecord")
            .arg("record"));
      }
    }
    return reads;
  }

  /** Puts the answers of {@link #storedDataReads} into the events they were read for. */
  static void fillStoredData(List<JsonObject> filled, List<Response> answers) {
    for (int i = 0; i < filled.size(); i++) {
      JsonObject e = filled.get(i);
      Response r = answers.get(i);
      if (EventType.TURN_SUBMITTED.wireName().equals(e.getString("type"))) {
        e.put("data", r == null ? new JsonObject() : new JsonObject(r.toString()));
      } else {
        Response first = r.get(0) != null ? r.get(0) : r.get(1);
        e.put("data", StepEntries.completedData(e.getJsonObject("data"), first == null ? null : first.toString()));
      }
    }
  }

  /**
   * Session metadata: agent, epoch, owner, createdAt, updatedAt, caller and creator (each when it
   * has one); empty when unknown.
   */
  @Override
  public Future<JsonObject> sessionInfo(String sessionId) {
    return send(Request.cmd(Command.HMGET).arg(keys.meta(sessionId)).arg("agent").arg("epoch").arg("owner")
        .arg("createdAt").arg("updatedAt").arg("caller").arg("creator").arg("archivedAt")).map(r -> {
          JsonObject json = new JsonObject();
          String[] names = {"agent", "epoch", "owner", "createdAt", "updatedAt", "caller", "creator", "archivedAt"};
          for (int i = 0; i < names.length; i++) {
            if (r.get(i) != null) {
              String v = r.get(i).toString();
              json.put(names[i], i == 1 || i == 3 || i == 4 || i == 7 ? (Object) Long.parseLong(v) : v);
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
   * pipelines of {@value RedisConnections#PIPELINE} commands: one round trip per pipeline, not per session.
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

  /**
   * Sessions with a turn in flight or an open round: a pipeline reads each one's in-flight count and
   * the tail of its conversation; only a conversation whose tail does not tell is read whole.
   */
  @Override
  public Future<List<String>> withWorkInFlight(List<String> sessionIds) {
    List<Future<List<Response>>> chunks = new ArrayList<>();
    for (int from = 0; from < sessionIds.size(); from += PIPELINE) {
      List<Request> reads = new ArrayList<>();
      for (String id : sessionIds.subList(from, Math.min(sessionIds.size(), from + PIPELINE))) {
        reads.add(Request.cmd(Command.SCARD).arg(keys.inflight(id)));
        reads.add(Request.cmd(Command.LLEN).arg(keys.conversation(id)));
        reads.add(Request.cmd(Command.LINDEX).arg(keys.conversation(id)).arg(-1));
      }
      chunks.add(pipeline(reads));
    }
    return Future.all(chunks).compose(cf -> {
      List<Future<String>> busy = new ArrayList<>();
      int i = 0;
      for (int c = 0; c < cf.size(); c++) {
        List<Response> replies = cf.resultAt(c);
        for (int r = 0; r < replies.size(); r += 3) {
          String id = sessionIds.get(i++);
          Response last = replies.get(r + 2);
          Boolean open = replies.get(r).toLong() > 0 ? Boolean.TRUE
              : OpenRound.fromTail(replies.get(r + 1).toLong(), last == null ? null : new JsonObject(last.toString()));
          if (open == null) {
            busy.add(conversation(id).map(entries -> OpenRound.in(entries) ? id : null));
          } else if (open) {
            busy.add(Future.succeededFuture(id));
          }
        }
      }
      return Future.all(busy).map(all -> {
        List<String> ids = new ArrayList<>();
        for (int k = 0; k < all.size(); k++) {
          if (all.resultAt(k) != null) {
            ids.add(all.resultAt(k));
          }
        }
        return ids;
      });
    });
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

  private static String str(Response r) {
    return r == null ? null : r.toString();
  }

  private Future<Response> send(Request request) {
    return redis.send(request);
  }

  private Future<List<Response>> pipeline(List<Request> requests) {
    return redis.pipeline(requests);
  }

  static String approvalMember(String sessionId, String callId) {
    return sessionId + "\n" + callId;
  }
}
