package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.journal.MemorySession.CallEntry;
import dev.ratchet.runtime.journal.MemorySession.TurnEntry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The in-memory journal's read side: each read a step under the store's lock, like every write. */
record MemoryQueries(MemoryStore store, Vertx vertx) implements JournalQueries {

  @Override
  public Future<Long> currentEpoch(String sessionId) {
    return store.step(vertx, () -> {
      MemorySession s = store.sessions.get(sessionId);
      return s == null ? 0L : s.epoch;
    });
  }

  @Override
  public Future<List<InflightTurn>> inflightTurns(String sessionId) {
    return store.step(vertx, () -> {
      MemorySession s = store.sessions.get(sessionId);
      return s == null ? List.<InflightTurn>of() : MemoryReads.inflight(sessionId, s);
    });
  }

  @Override
  public Future<TurnResult> turnResult(String sessionId, String turnId) {
    return store.step(vertx, () -> {
      MemorySession s = store.sessions.get(sessionId);
      TurnEntry t = s == null ? null : s.turns.get(turnId);
      return t == null || !"completed".equals(t.status) ? null : MemoryReads.results(sessionId, s, turnId);
    });
  }

  @Override
  public Future<String> turnStatus(String sessionId, String turnId) {
    return store.step(vertx, () -> {
      MemorySession s = store.sessions.get(sessionId);
      TurnEntry t = s == null ? null : s.turns.get(turnId);
      return t == null ? null : t.status;
    });
  }

  @Override
  public Future<Turn> submittedTurn(String sessionId, String turnId) {
    return store.step(vertx, () -> {
      MemorySession s = store.sessions.get(sessionId);
      TurnEntry t = s == null ? null : s.turns.get(turnId);
      return t == null || t.spec == null ? null : Turn.fromJson(new JsonObject(t.spec));
    });
  }

  @Override
  public Future<String> turnHome(String callerId, String agent, String turnId, String sessionId) {
    return store.step(vertx, () -> store.turnHomes.computeIfAbsent(callerId + "\n" + agent + "\n" + turnId, k -> sessionId));
  }

  @Override
  public Future<CallState> callState(String sessionId, CallId callId) {
    return store.step(vertx, () -> {
      MemorySession s = store.sessions.get(sessionId);
      return MemoryReads.callState(callId.value(), s == null ? null : s.calls.get(callId.value()));
    });
  }

  @Override
  public Future<ApprovalRequest> approvalRequest(String sessionId, CallId callId) {
    return store.step(vertx, () -> {
      MemorySession s = store.sessions.get(sessionId);
      CallEntry c = s == null ? null : s.calls.get(callId.value());
      return c == null || c.approvalRequest == null ? null : ApprovalRequest.fromJson(new JsonObject(c.approvalRequest));
    });
  }

  @Override
  public Future<List<ApprovalRequest>> pendingApprovals(int limit) {
    return store.step(vertx, () -> {
      List<ApprovalRequest> list = new ArrayList<>();
      for (MemoryStore.Pending p : store.pending) {
        if (list.size() >= Math.max(1, limit)) {
          break;
        }
        String[] parts = p.member().split("\n", 2);
        CallEntry c = store.sessions.get(parts[0]).calls.get(parts[1]);
        list.add(ApprovalRequest.fromJson(new JsonObject(c.approvalRequest)));
      }
      return list;
    });
  }

  @Override
  public Future<List<JsonObject>> conversation(String sessionId) {
    return store.step(vertx, () -> {
      MemorySession s = store.sessions.get(sessionId);
      List<JsonObject> list = new ArrayList<>();
      if (s != null) {
        s.conversation.forEach(e -> list.add(new JsonObject(e)));
      }
      return list;
    });
  }

  @Override
  public Future<List<JsonObject>> events(String sessionId, String afterId, int count) {
    return store.step(vertx, () -> {
      MemorySession s = store.sessions.get(sessionId);
      return s == null ? new ArrayList<JsonObject>() : MemoryReads.events(sessionId, s, afterId, count);
    });
  }

  @Override
  public Future<JsonObject> sessionInfo(String sessionId) {
    return store.step(vertx, () -> {
      MemorySession s = store.sessions.get(sessionId);
      return s == null ? new JsonObject() : MemoryReads.sessionInfo(s);
    });
  }

  @Override
  public Future<List<String>> recentSessions(int offset, int limit) {
    return store.step(vertx, () -> {
      List<String> all = new ArrayList<>(store.recent.keySet());
      all.sort(Comparator.<String>comparingLong(store.recent::get).thenComparing(Comparator.naturalOrder()).reversed());
      return new ArrayList<>(all.subList(Math.min(offset, all.size()), Math.min(offset + Math.max(0, limit),
          all.size())));
    });
  }

  @Override
  public Future<Map<String, String>> sessionAgents(List<String> sessionIds) {
    return store.step(vertx, () -> {
      Map<String, String> agents = new HashMap<>();
      for (String id : sessionIds) {
        MemorySession s = store.sessions.get(id);
        if (s != null && s.agent != null) {
          agents.put(id, s.agent);
        }
      }
      return agents;
    });
  }

  @Override
  public Future<List<String>> activeSessions() {
    return store.step(vertx, () -> new ArrayList<>(store.active));
  }

  @Override
  public Future<List<String>> withWorkInFlight(List<String> sessionIds) {
    return store.step(vertx, () -> {
      List<String> busy = new ArrayList<>();
      for (String id : sessionIds) {
        MemorySession s = store.sessions.get(id);
        if (s != null && (!s.inflight.isEmpty()
            || OpenRound.in(s.conversation.stream().map(JsonObject::new).toList()))) {
          busy.add(id);
        }
      }
      return busy;
    });
  }
}
