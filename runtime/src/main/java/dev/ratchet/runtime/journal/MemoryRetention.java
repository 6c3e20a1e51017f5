package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.CallStatus;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.journal.JournalRetention.SessionActivity;
import dev.ratchet.runtime.journal.MemorySession.CallEntry;
import dev.ratchet.runtime.journal.MemorySession.TurnEntry;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@link JournalRetention} over {@link InMemoryJournal}'s sessions, with the Redis journal's rules
 * (retention_remove.lua, retention_forget.lua): each method runs under the journal's lock, as one
 * step. Expired turn ids and forgotten session ids are kept exactly here, where Redis keeps a 32-bit
 * digest per turn and a fixed-size Bloom filter of sessions.
 */
final class MemoryRetention {

  private final Map<String, MemorySession> sessions;
  private final Map<String, Long> recent;
  private final Map<String, Long> schedule = new LinkedHashMap<>();
  private final List<JsonObject> audit = new ArrayList<>();
  private final Set<String> forgotten = new java.util.HashSet<>();
  private final Set<String> erased = new java.util.HashSet<>();
  private long auditSeq;

  MemoryRetention(Map<String, MemorySession> sessions, Map<String, Long> recent) {
    this.sessions = sessions;
    this.recent = recent;
  }

  List<SessionActivity> activeSince(long since, int limit) {
    return recent.entrySet().stream().filter(e -> e.getValue() >= since)
        .sorted(Map.Entry.<String, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey())).limit(limit)
        .map(e -> new SessionActivity(e.getKey(), e.getValue())).toList();
  }

  void schedule(String sessionId, long dueAt) {
    if (dueAt < 0) {
      schedule.remove(sessionId);
    } else {
      schedule.put(sessionId, dueAt);
    }
  }

  List<String> due(long now, int limit) {
    return schedule.entrySet().stream().filter(e -> e.getValue() <= now)
        .sorted(Map.Entry.<String, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey())).limit(limit)
        .map(Map.Entry::getKey).toList();
  }

  SessionHistory history(String sessionId) {
    MemorySession s = sessions.get(sessionId);
    if (s == null || s.agent == null) {
      return null;
    }
    JsonObject meta = MemoryReads.sessionInfo(s);
    List<SessionHistory.TurnEntry> turns = new ArrayList<>();
    Set<String> ids = new LinkedHashSet<>();
    s.events.stream().filter(e -> EventType.TURN_SUBMITTED.wireName().equals(e.type()) || EventType.TURN_IMPORTED.wireName().equals(e.type()))
        .forEach(e -> ids.add(e.turn()));
    ids.addAll(s.inflight);
    for (String turnId : ids) {
      TurnEntry t = s.turns.get(turnId);
      if (t == null || t.spec == null) {
        continue;
      }
      boolean completed = "completed".equals(t.status);
      TurnResult results = completed ? MemoryReads.results(sessionId, s, turnId) : null;
      boolean removable = completed && removable(sessionId, s, turnId, t);
      turns.add(new SessionHistory.TurnEntry(turnId, t.status, new JsonObject(t.spec), t.specHash, t.submittedAt,
          t.completedAt == null ? 0 : t.completedAt, results, removable));
    }
    List<JsonObject> events = MemoryReads.events(sessionId, s, null, Integer.MAX_VALUE);
    List<JsonObject> conversation = new ArrayList<>();
    s.conversation.forEach(c -> conversation.add(new JsonObject(c)));
    Map<String, JsonObject> stones = new LinkedHashMap<>();
    s.tombstones.forEach((k, v) -> stones.put(k, new JsonObject(v)));
    return new SessionHistory(sessionId, meta, turns, events, conversation, stones);
  }

  private static boolean removable(String sessionId, MemorySession s, String turnId, TurnEntry t) {
    if (!"completed".equals(t.status) || s.inflight.contains(turnId)) {
      return false;
    }
    Turn turn = Turn.fromJson(new JsonObject(t.spec));
    for (int i = 0; i < turn.calls().size(); i++) {
      CallEntry c = s.calls.get(turn.callId(sessionId, i).value());
      if (c == null || c.record == null || "pending".equals(c.approvalStatus)
          || CallResult.fromJson(new JsonObject(c.record)).outcome() == Outcome.OUTCOME_UNKNOWN) {
        return false;
      }
    }
    return true;
  }

  Removal remove(String sessionId, MemorySession s, RemovalPlan plan) {
    int expired = 0;
    for (var it = s.tombstones.entrySet().iterator(); it.hasNext(); ) {
      var e = it.next();
      if (new JsonObject(e.getValue()).getLong("expiresAt", 0L) <= plan.now()) {
        it.remove();
        s.expiredTurns.add(e.getKey());
        expired++;
      }
    }
    List<String> removed = new ArrayList<>();
    boolean skipped = false;
    for (RemovalPlan.TurnRemoval r : plan.turns()) {
      TurnEntry t = s.turns.get(r.turnId());
      if (t == null || !removable(sessionId, s, r.turnId(), t)) {
        skipped = true;
        continue;
      }
      s.turns.remove(r.turnId());
      r.callIds().forEach(s.calls::remove);
      s.tombstones.put(r.turnId(), r.tombstone().encode());
      removed.add(r.turnId());
    }
    // one pass over the events for every removed turn, not one each
    Set<String> gone = new java.util.HashSet<>(removed);
    s.events.removeIf(e -> e.turn() != null && gone.contains(e.turn()));
    boolean archived = false;
    if (plan.wholeSession() && !skipped && s.inflight.isEmpty() && s.updatedAt != null
        && s.updatedAt == plan.seenUpdatedAt()) {
      s.events.clear();
      s.archivedAt = plan.now();
      archived = true;
    }
    return new Removal(removed, expired, archived);
  }

  boolean forget(String sessionId, MemorySession s, long seenUpdatedAt, long archivedBefore) {
    if (s.archivedAt == null || s.updatedAt == null || s.updatedAt != seenUpdatedAt || s.archivedAt < s.updatedAt
        || s.archivedAt > archivedBefore || !s.tombstones.isEmpty() || !s.inflight.isEmpty()) {
      return false;
    }
    forgotten.add(sessionId);
    sessions.remove(sessionId);
    recent.remove(sessionId);
    schedule.remove(sessionId);
    return true;
  }

  /** Fails with {@code SESSION_FORGOTTEN} when retention forgot the session and the journal does not hold it again. */
  void notForgotten(String sessionId) {
    notErased(sessionId);
    if (!sessions.containsKey(sessionId) && forgotten.contains(sessionId)) {
      throw new RatchetException(ErrorCode.SESSION_FORGOTTEN, "session '" + sessionId
          + "' was archived and then forgotten by retention; start a new session");
    }
  }

  /** Fails with {@code SESSION_ERASED} when an operator erased the session and the journal does not hold it again. */
  void notErased(String sessionId) {
    if (!sessions.containsKey(sessionId) && erased.contains(sessionId)) {
      throw new RatchetException(ErrorCode.SESSION_ERASED, "an operator erased the session; start a new session");
    }
  }

  boolean erase(String sessionId, String who) {
    MemorySession s = sessions.remove(sessionId);
    recent.remove(sessionId);
    schedule.remove(sessionId);
    if (s == null) {
      return false;
    }
    erased.add(sessionId);
    audit.add(new JsonObject().put("id", (++auditSeq) + "-0").put("action", "erase").put("session", sessionId)
        .put("who", who).put("at", System.currentTimeMillis()));
    return true;
  }

  List<JsonObject> audit(int count) {
    List<JsonObject> list = new ArrayList<>();
    audit.stream().limit(count).forEach(a -> list.add(a.copy()));
    return list;
  }

  int importSession(SessionHistory history) {
    String sessionId = history.sessionId();
    if (sessions.containsKey(sessionId) && sessions.get(sessionId).agent != null) {
      throw new RatchetException(ErrorCode.SESSION_EXISTS, "the journal already holds this session; import never overwrites one");
    }
    String agent = history.meta().getString("agent");
    if (agent == null) {
      throw new RatchetException(ErrorCode.INVALID_REQUEST, "the exported session names no agent");
    }
    long now = System.currentTimeMillis();
    erased.remove(sessionId);
    MemorySession s = new MemorySession();
    s.agent = agent;
    s.caller = history.meta().getString("caller");
    s.createdAt = history.meta().getLong("createdAt", now);
    s.updatedAt = now;
    int n = 0;
    for (SessionHistory.TurnEntry t : history.turns()) {
      if (!"completed".equals(t.status()) || t.results() == null) {
        continue;
      }
      TurnEntry e = new TurnEntry();
      e.spec = t.spec().encode();
      e.specHash = t.specHash();
      e.status = "completed";
      e.submittedAt = t.submittedAt();
      e.completedAt = t.completedAt();
      e.results = t.results().toJson().encode();
      s.turns.put(t.turnId(), e);
      for (CallResult c : t.results().calls()) {
        CallEntry call = s.call(c.callId().value());
        call.turn = t.turnId();
        call.state = CallStatus.DONE;
        call.record = c.toJson().encode();
      }
      s.append(EventType.TURN_IMPORTED.wireName(), t.turnId(), null, now, "{}");
      n++;
    }
    sessions.put(sessionId, s);
    recent.put(sessionId, now);
    return n;
  }

  /** The answer to a submission of a turn retention removed, or null when retention knows nothing of it. */
  static SubmitAnswer removedTurn(MemorySession s, String sessionId, Turn turn, String specHash) {
    String turnId = turn.turnId();
    String stone = s.tombstones.get(turnId);
    if (stone != null) {
      JsonObject t = new JsonObject(stone);
      return specHash.equals(t.getString("specHash"))
          ? new SubmitAnswer(SubmitAnswer.Status.COMPLETED, Tombstones.results(t, sessionId, turn))
          : new SubmitAnswer(SubmitAnswer.Status.CONFLICT, null);
    }
    return s.expiredTurns.contains(turnId) ? new SubmitAnswer(SubmitAnswer.Status.EXPIRED, null) : null;
  }
}
