package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.CallStatus;
import dev.ratchet.runtime.ApprovalRecord;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.journal.MemorySession.CallEntry;
import dev.ratchet.runtime.journal.MemorySession.Event;
import dev.ratchet.runtime.journal.MemorySession.TurnEntry;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@link InMemoryJournal}'s reads of one session, building what the Redis journal's reads build. */
final class MemoryReads {

  private MemoryReads() {
  }

  /** A session's events after {@code afterId}, at most {@code count}, as {@link JournalQueries#events} answers them. */
  static List<JsonObject> events(String sessionId, MemorySession s, String afterId, int count) {
    List<JsonObject> list = new ArrayList<>();
    long after = afterId == null ? 0 : sequenceOf(afterId);
    for (Event e : s.events) {
      if (list.size() >= count) {
        break;
      }
      if (e.seq() > after) {
        list.add(withStoredData(sessionId, s, e));
      }
    }
    return list;
  }

  /** A session's metadata, as {@link JournalQueries#sessionInfo} answers it. */
  static JsonObject sessionInfo(MemorySession s) {
    JsonObject json = new JsonObject();
    putIf(json, "agent", s.agent);
    if (s.epoch > 0) {
      json.put("epoch", s.epoch);
    }
    putIf(json, "owner", s.owner);
    putIf(json, "createdAt", s.createdAt);
    putIf(json, "updatedAt", s.updatedAt);
    putIf(json, "caller", s.caller);
    putIf(json, "creator", s.creator);
    putIf(json, "archivedAt", s.archivedAt);
    return json;
  }

  /** The turns journaled and not completed, oldest first, with each call's state. */
  static List<InflightTurn> inflight(String sessionId, MemorySession s) {
    List<InflightTurn> list = new ArrayList<>();
    for (String turnId : s.inflight) {
      TurnEntry t = s.turns.get(turnId);
      if (t == null || t.spec == null) {
        continue;
      }
      JsonObject spec = new JsonObject(t.spec);
      Turn turn = Turn.fromJson(spec);
      Map<String, CallState> calls = new LinkedHashMap<>();
      for (int c = 0; c < turn.calls().size(); c++) {
        String callId = turn.callId(sessionId, c).value();
        calls.put(callId, callState(callId, s.calls.get(callId)));
      }
      list.add(new InflightTurn(turn, t.submittedAt, calls, Turn.catalogueOf(spec), Turn.replyAddressOf(spec)));
    }
    list.sort(Comparator.comparingLong(InflightTurn::submittedAt));
    return list;
  }

  /** A completed turn's results: as journaled, or from its calls' records when a group commit completed it. */
  static TurnResult results(String sessionId, MemorySession s, String turnId) {
    TurnEntry t = s.turns.get(turnId);
    if (t.results != null) {
      return TurnResult.fromJson(new JsonObject(t.results));
    }
    if (t.spec == null) {
      throw new RatchetException(ErrorCode.JOURNAL_INCOMPLETE, "session " + sessionId + ": turn " + turnId
          + " is completed but has no spec");
    }
    Turn turn = Turn.fromJson(new JsonObject(t.spec));
    List<CallResult> calls = new ArrayList<>(turn.calls().size());
    for (int i = 0; i < turn.calls().size(); i++) {
      CallEntry c = s.calls.get(turn.callId(sessionId, i).value());
      if (c == null || c.record == null) {
        throw new RatchetException(ErrorCode.JOURNAL_INCOMPLETE, "session " + sessionId + ": turn " + turnId
            + " is completed but call #" + i + " has no record");
      }
      calls.add(CallResult.fromJson(new JsonObject(c.record)));
    }
    return new TurnResult(sessionId, turnId, calls);
  }

  static CallState callState(String callId, CallEntry c) {
    if (c == null || (c.state == null && c.record == null)) {
      return CallState.fresh(callId);
    }
    CallResult record = c.record == null ? null : CallResult.fromJson(new JsonObject(c.record));
    ApprovalRecord approval = null;
    if (c.approvalStatus != null) {
      approval = new ApprovalRecord(c.approvalStatus, new JsonObject(c.approvalRequest).getString("askedBecause"),
          c.requestedAt, c.approver, c.approvalReason, c.decidedAt,
          c.editedArguments == null ? null : new JsonObject(c.editedArguments),
          c.editedArguments == null ? null : c.argumentsHash);
    }
    return new CallState(callId, record != null ? CallStatus.DONE : c.state, record, c.attempts, approval, c.argumentsHash,
        c.expiresAt, c.startedAt == null ? 0 : c.startedAt);
  }

  /** What the Redis journal's reads add to an event: a submitted turn's spec, a completed call's first record. */
  private static JsonObject withStoredData(String sessionId, MemorySession s, Event e) {
    JsonObject json = e.toJson(e.seq() + "-0");
    if (EventType.TURN_SUBMITTED.wireName().equals(e.type())) {
      TurnEntry t = s.turns.get(e.turn());
      json.put("data", t == null || t.spec == null ? new JsonObject() : new JsonObject(t.spec));
    } else if (StepEntries.needsRecord(json)) {
      CallEntry c = s.calls.get(e.call());
      String first = c == null ? null : c.completedRecord != null ? c.completedRecord : c.record;
      json.put("data", StepEntries.completedData(json.getJsonObject("data"), first));
    }
    return json;
  }

  /** The sequence number of an event id ({@code "<seq>-0"}); 0, the start, for an id of no such form. */
  private static long sequenceOf(String eventId) {
    int dash = eventId.indexOf('-');
    try {
      return Long.parseLong(dash < 0 ? eventId : eventId.substring(0, dash));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static void putIf(JsonObject json, String name, Object value) {
    if (value != null) {
      json.put(name, value);
    }
  }
}
