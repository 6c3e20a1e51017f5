package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.CallStatus;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RatchetClock;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.journal.MemorySession.CallEntry;
import dev.ratchet.runtime.journal.MemorySession.TurnEntry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A journal in this process's memory, with the Redis journal's contracts (fencing, exactly-once
 * outcomes, idempotent submits, approvals, the same events): for engine tests that check rules
 * rather than Redis, and for applications' own tests. Nothing survives the process, so it gives
 * none of the durability a deployment needs. Each step runs whole under the journal's lock, and its
 * answer arrives on the caller's Vert.x context afterwards, as a Redis reply would.
 */
public final class InMemoryJournal implements SessionJournal, JournalRetention {

  private final Vertx vertx;
  private final RatchetClock clock;
  private final Map<String, MemorySession> sessions = new HashMap<>();
  /** Where each caller's turn runs (caller, agent, turn id); kept as long as this journal. */
  private final Map<String, String> turnHomes = new HashMap<>();
  private final Set<String> active = new LinkedHashSet<>();
  private final Map<String, Long> recent = new HashMap<>();
  /** Approvals listed for the inbox, by request time, as "session\ncall". */
  private final TreeSet<Pending> pending = new TreeSet<>(Comparator.comparingLong(Pending::requestedAt)
      .thenComparing(Pending::member));

  private record Pending(long requestedAt, String member) {
  }

  private final MemoryRetention retention = new MemoryRetention(sessions, recent);

  private InMemoryJournal(Vertx vertx, RatchetClock clock) {
    this.vertx = vertx;
    this.clock = clock;
  }

  /**
   * An empty journal. Answers arrive on the caller's context; for callers outside any context, on a
   * context of {@code vertx}. One journal may serve engines of several Vert.x instances, as one
   * Redis serves several nodes.
   */
  public static InMemoryJournal create(Vertx vertx) {
    return create(vertx, RatchetClock.system(vertx));
  }

  /**
   * As {@link #create(Vertx)}, reading the time of its steps and of approval expiry from
   * {@code clock}: the engines over it should run on the same clock.
   */
  public static InMemoryJournal create(Vertx vertx, RatchetClock clock) {
    return new InMemoryJournal(vertx, clock);
  }

  // ---------------------------------------------------------------- ownership

  @Override
  public Future<Long> claim(String sessionId, String owner) {
    return step(() -> claimNow(sessionId, owner));
  }

  private long claimNow(String sessionId, String owner) {
    retention.notForgotten(sessionId);
    MemorySession s = sessions.computeIfAbsent(sessionId, id -> new MemorySession());
    s.epoch++;
    s.owner = owner;
    s.append(EventType.SESSION_CLAIMED.wireName(), null, null, now(), new JsonObject().put("owner", owner).put("epoch", s.epoch).encode());
    return s.epoch;
  }

  @Override
  public Future<ClaimedSession> claimAndLoad(String sessionId, String owner) {
    return step(() -> {
      long epoch = claimNow(sessionId, owner);
      MemorySession s = sessions.get(sessionId);
      return new ClaimedSession(epoch, s.caller, MemoryReads.inflight(sessionId, s));
    });
  }

  @Override
  public Future<Long> currentEpoch(String sessionId) {
    return step(() -> {
      MemorySession s = sessions.get(sessionId);
      return s == null ? 0L : s.epoch;
    });
  }

  @Override
  public Future<List<InflightTurn>> inflightTurns(String sessionId) {
    return step(() -> {
      MemorySession s = sessions.get(sessionId);
      return s == null ? List.<InflightTurn>of() : MemoryReads.inflight(sessionId, s);
    });
  }

  // ---------------------------------------------------------------- turns

  @Override
  public Future<SubmitAnswer> submitTurn(String sessionId, long epoch, String agent, String callerId, String creator,
                                         Turn turn, String catalogue, String replyAddress, boolean index,
                                         CallStart firstWrite) {
    TurnSpec spec = TurnSpec.of(turn, catalogue, replyAddress);
    return step(() -> {
      long now = now();
      if (index) {
        // as in Redis, the recovery index is written first: it may name a session without a turn, never the reverse
        active.add(sessionId);
        recent.put(sessionId, now);
      }
      MemorySession s = fenced(sessionId, epoch);
      checkCaller(s, callerId);
      TurnEntry existing = s.turns.get(turn.turnId());
      if (existing != null && existing.status != null) {
        if (!spec.hash().equals(existing.specHash)) {
          return new SubmitAnswer(SubmitAnswer.Status.CONFLICT, null);
        }
        return "completed".equals(existing.status)
            ? new SubmitAnswer(SubmitAnswer.Status.COMPLETED, MemoryReads.results(sessionId, s, turn.turnId()))
            : new SubmitAnswer(SubmitAnswer.Status.RUNNING, null);
      }
      SubmitAnswer removed = MemoryRetention.removedTurn(s, sessionId, turn, spec.hash());
      if (removed != null) {
        return removed;
      }
      ownSession(s, agent, callerId, creator, now);
      s.updatedAt = now;
      TurnEntry t = new TurnEntry();
      t.spec = spec.encoded();
      t.specHash = spec.hash();
      t.status = "running";
      t.submittedAt = now;
      s.turns.put(turn.turnId(), t);
      s.inflight.add(turn.turnId());
      s.append(EventType.TURN_SUBMITTED.wireName(), turn.turnId(), null, now, null);
      if (firstWrite == null) {
        return new SubmitAnswer(SubmitAnswer.Status.NEW, null, false);
      }
      started(s, turn.turnId(), firstWrite.callId().value(), firstWrite.attempt(), now, firstWrite.data().encode());
      return new SubmitAnswer(SubmitAnswer.Status.NEW, null, true);
    });
  }

  @Override
  public Future<TurnResult> turnCompleted(String sessionId, long epoch, TurnResult result) {
    List<String> records = new ArrayList<>(result.calls().size());
    result.calls().forEach(c -> records.add(RecordText.full(c, null)));
    String results = RecordText.turnResult(result.sessionId(), result.turnId(), records);
    return step(() -> {
      MemorySession s = fenced(sessionId, epoch);
      TurnEntry t = s.turns.computeIfAbsent(result.turnId(), id -> new TurnEntry());
      if ("completed".equals(t.status)) {
        return MemoryReads.results(sessionId, s, result.turnId());
      }
      long now = now();
      t.status = "completed";
      t.results = results;
      t.completedAt = now;
      s.updatedAt = now;
      s.inflight.remove(result.turnId());
      s.append(EventType.TURN_COMPLETED.wireName(), result.turnId(), null, now, RecordText.turnSummary(result));
      return result;
    });
  }

  @Override
  public Future<TurnResult> turnResult(String sessionId, String turnId) {
    return step(() -> {
      MemorySession s = sessions.get(sessionId);
      TurnEntry t = s == null ? null : s.turns.get(turnId);
      return t == null || !"completed".equals(t.status) ? null : MemoryReads.results(sessionId, s, turnId);
    });
  }

  @Override
  public Future<String> turnStatus(String sessionId, String turnId) {
    return step(() -> {
      MemorySession s = sessions.get(sessionId);
      TurnEntry t = s == null ? null : s.turns.get(turnId);
      return t == null ? null : t.status;
    });
  }

  public Future<Turn> submittedTurn(String sessionId, String turnId) {
    return step(() -> {
      MemorySession s = sessions.get(sessionId);
      TurnEntry t = s == null ? null : s.turns.get(turnId);
      return t == null || t.spec == null ? null : Turn.fromJson(new JsonObject(t.spec));
    });
  }

  @Override
  public Future<String> turnHome(String callerId, String agent, String turnId, String sessionId) {
    return step(() -> turnHomes.computeIfAbsent(callerId + "\n" + agent + "\n" + turnId, k -> sessionId));
  }

  // ---------------------------------------------------------------- calls

  @Override
  public Future<CallResult> callStarted(String sessionId, long epoch, String turnId, CallId callId, int attempt,
                                        JsonObject data) {
    String encoded = data.encode();
    return step(() -> {
      MemorySession s = fenced(sessionId, epoch);
      CallEntry c = s.calls.get(callId.value());
      if (c != null && c.record != null) {
        return CallResult.fromJson(new JsonObject(c.record));
      }
      started(s, turnId, callId.value(), attempt, now(), encoded);
      return null;
    });
  }

  private static void started(MemorySession s, String turnId, String callId, int attempt, long now, String data) {
    CallEntry c = s.call(callId);
    c.turn = turnId;
    c.state = CallStatus.STARTED;
    c.attempts = attempt;
    c.startedAt = now;
    s.append(EventType.CALL_STARTED.wireName(), turnId, callId, now, data);
  }

  @Override
  public Future<CallResult> callCompleted(String sessionId, long epoch, String turnId, CallResult record) {
    String resultText = record.result() == null ? null : Json.encode(record.result());
    String full = RecordText.full(record, resultText);
    String event = RecordText.completedEvent(record, resultText);
    return step(() -> {
      MemorySession s = fenced(sessionId, epoch);
      String existing = complete(s, turnId, record, full, event, now());
      return existing == null ? record : CallResult.fromJson(new JsonObject(existing));
    });
  }

  /** Journals a call's record unless it has one (J1); answers the existing record, or null when this one is new. */
  private static String complete(MemorySession s, String turnId, CallResult record, String full, String event,
                                 long now) {
    CallEntry c = s.call(record.callId().value());
    if (c.record != null) {
      return c.record;
    }
    c.record = full;
    if (record.outcome() == Outcome.OUTCOME_UNKNOWN) {
      c.turn = turnId;
    }
    s.append(EventType.CALL_COMPLETED.wireName(), turnId, record.callId().value(), now, event);
    return null;
  }

  @Override
  public Future<CompletedCalls> callsCompleted(String sessionId, long epoch, String turnId, List<CallResult> records,
                                               TurnResult turnResult, CallStart nextWrite,
                                               Function<CallResult, String> resultTexts) {
    List<String> fulls = new ArrayList<>(records.size());
    List<String> events = new ArrayList<>(records.size());
    for (CallResult record : records) {
      String resultText = RecordText.resultText(record, resultTexts.apply(record));
      fulls.add(RecordText.full(record, resultText));
      events.add(RecordText.completedEvent(record, resultText));
    }
    String summary = turnResult == null ? null : RecordText.turnSummary(turnResult);
    return step(() -> {
      MemorySession s = fenced(sessionId, epoch);
      if (turnResult != null) {
        // checked before anything is written: the step is whole or nothing (J7)
        Set<String> inStep = new HashSet<>();
        records.forEach(r -> inStep.add(r.callId().value()));
        for (CallResult call : turnResult.calls()) {
          CallEntry c = s.calls.get(call.callId().value());
          if (!inStep.contains(call.callId().value()) && (c == null || c.record == null)) {
            throw new RatchetException(ErrorCode.JOURNAL_ERROR, "the journal refused a step: JOURNAL_INCOMPLETE a call of the turn"
                + " has no outcome journaled: " + call.callId().value());
          }
        }
      }
      long now = now();
      boolean allNew = true;
      List<CallResult> journaled = new ArrayList<>(records.size());
      for (int i = 0; i < records.size(); i++) {
        String existing = complete(s, turnId, records.get(i), fulls.get(i), events.get(i), now);
        allNew &= existing == null;
        journaled.add(existing == null ? records.get(i) : CallResult.fromJson(new JsonObject(existing)));
      }
      boolean turnDone = false;
      if (turnResult != null && allNew) {
        TurnEntry t = s.turns.computeIfAbsent(turnId, id -> new TurnEntry());
        t.status = "completed";
        t.completedAt = now;
        s.updatedAt = now;
        s.inflight.remove(turnId);
        s.append(EventType.TURN_COMPLETED.wireName(), turnId, null, now, summary);
        turnDone = true;
      }
      boolean started = false;
      if (nextWrite != null && allNew && !turnDone) {
        CallEntry next = s.calls.get(nextWrite.callId().value());
        if (next == null || next.record == null) {
          started(s, turnId, nextWrite.callId().value(), nextWrite.attempt(), now, nextWrite.data().encode());
          started = true;
        }
      }
      return new CompletedCalls(journaled, turnDone, started);
    });
  }

  @Override
  public Future<Void> appendEvent(String sessionId, long epoch, String type, String turnId, String callId,
                                  JsonObject data) {
    String encoded = data.encode();
    return step(() -> {
      fenced(sessionId, epoch).append(type, turnId, callId, now(), encoded);
      return null;
    });
  }

  @Override
  public Future<CallState> callState(String sessionId, CallId callId) {
    return step(() -> {
      MemorySession s = sessions.get(sessionId);
      return MemoryReads.callState(callId.value(), s == null ? null : s.calls.get(callId.value()));
    });
  }

  @Override
  public Future<ApprovalRequest> approvalRequest(String sessionId, CallId callId) {
    return step(() -> {
      MemorySession s = sessions.get(sessionId);
      CallEntry c = s == null ? null : s.calls.get(callId.value());
      return c == null || c.approvalRequest == null ? null : ApprovalRequest.fromJson(new JsonObject(c.approvalRequest));
    });
  }

  // ---------------------------------------------------------------- approvals

  @Override
  public Future<String> approvalRequested(long epoch, ApprovalRequest request) {
    String json = request.toJson().encode();
    return step(() -> {
      String sessionId = request.sessionId();
      MemorySession s = fenced(sessionId, epoch);
      CallEntry c = s.call(request.callId().value());
      if (c.record != null) {
        return "decided";
      }
      if (c.approvalStatus != null) {
        return c.approvalStatus;
      }
      long now = request.requestedAt();
      c.turn = request.turnId();
      c.state = CallStatus.AWAITING_APPROVAL;
      c.approvalStatus = "pending";
      c.approvalRequest = json;
      c.argumentsHash = request.argumentsHash();
      c.expiresAt = request.expiresAt();
      c.requestedAt = now;
      s.append(EventType.APPROVAL_REQUESTED.wireName(), request.turnId(), request.callId().value(), now, json);
      pending.add(new Pending(now, sessionId + "\n" + request.callId().value()));
      return "pending";
    });
  }

  @Override
  public Future<DecisionAnswer> approvalDecided(String sessionId, CallId callId, String argumentsHash,
                                                String status, String approver, String reason,
                                                JsonObject editedArguments) {
    return step(() -> {
      MemorySession s = sessions.get(sessionId);
      CallEntry c = s == null ? null : s.calls.get(callId.value());
      if (c == null || c.approvalStatus == null) {
        return DecisionAnswer.UNKNOWN_CALL;
      }
      if (!"pending".equals(c.approvalStatus)) {
        unlist(sessionId, callId.value());
        return DecisionAnswer.ALREADY_DECIDED;
      }
      long now = now();
      if (!"expired".equals(status)) {
        if (!argumentsHash.equals(c.argumentsHash)) {
          return DecisionAnswer.STALE;
        }
        if (c.expiresAt > 0 && now >= c.expiresAt) {
          // fail closed: the request is journaled expired, so the inbox (which drops it) and the call agree
          decide(s, c, callId.value(), "expired", "ratchet", "approval expired", now, null);
          unlist(sessionId, callId.value());
          return DecisionAnswer.EXPIRED;
        }
      }
      decide(s, c, callId.value(), status, approver, reason == null ? "" : reason, now,
          "approved".equals(status) ? editedArguments : null);
      unlist(sessionId, callId.value());
      return DecisionAnswer.ACCEPTED;
    });
  }

  private static void decide(MemorySession s, CallEntry c, String callId, String status, String approver,
                             String reason, long now, JsonObject editedArguments) {
    c.approvalStatus = status;
    c.approver = approver;
    c.approvalReason = reason;
    c.decidedAt = now;
    JsonObject data = new JsonObject().put("status", status).put("approver", approver).put("reason", reason);
    if (editedArguments != null) {
      c.editedArguments = editedArguments.encode();
      data.put("editedArguments", editedArguments.copy()).put("originalArgumentsHash", c.argumentsHash)
          .put("editedBy", approver);
    }
    s.append(EventType.APPROVAL_DECIDED.wireName(), c.turn, callId, now, data.encode());
  }

  private void unlist(String sessionId, String callId) {
    pending.removeIf(p -> p.member().equals(sessionId + "\n" + callId));
  }

  @Override
  public Future<List<ApprovalRequest>> pendingApprovals(int limit) {
    return step(() -> {
      List<ApprovalRequest> list = new ArrayList<>();
      for (Pending p : pending) {
        if (list.size() >= Math.max(1, limit)) {
          break;
        }
        String[] parts = p.member().split("\n", 2);
        CallEntry c = sessions.get(parts[0]).calls.get(parts[1]);
        list.add(ApprovalRequest.fromJson(new JsonObject(c.approvalRequest)));
      }
      return list;
    });
  }

  // ---------------------------------------------------------------- reconciliation

  @Override
  public Future<CallResult> reconcile(String sessionId, CallId callId, Outcome outcome, String who, String note) {
    if (outcome == Outcome.OUTCOME_UNKNOWN) {
      return Future.failedFuture(new RatchetException(ErrorCode.INVALID_REQUEST, "reconcile to succeeded or failed"));
    }
    return step(() -> {
      MemorySession s = sessions.get(sessionId);
      CallEntry c = s == null ? null : s.calls.get(callId.value());
      if (c == null || c.record == null) {
        throw new RatchetException(ErrorCode.UNKNOWN_CALL, "no completed call " + callId + " in session " + sessionId);
      }
      CallResult r = CallResult.fromJson(new JsonObject(c.record));
      if (r.outcome() != Outcome.OUTCOME_UNKNOWN) {
        throw new RatchetException(ErrorCode.NOT_UNKNOWN, "call " + callId + " ended " + r.outcome().wireName()
            + "; only outcome_unknown calls can be reconciled");
      }
      CallResult updated = new CallResult(r.index(), r.callId(), r.tool(), r.modelCallId(), r.effectClass(),
          outcome, r.result(), note == null ? r.error() : r.error() == null ? "reconciled: " + note
          : r.error() + " (reconciled: " + note + ")", r.attempts(), r.skipped(), r.truncated(), r.approval(),
          r.durationMillis(), who, r.approvalWaitMillis());
      String turnId = c.turn == null ? "" : c.turn;
      TurnEntry t = s.turns.get(turnId);
      if (t != null && t.spec != null && "completed".equals(t.status) && t.results == null) {
        // the turn keeps answering its results as first journaled (J7)
        t.results = MemoryReads.results(sessionId, s, turnId).toJson().encode();
      }
      long now = now();
      if (c.completedRecord == null) {
        c.completedRecord = c.record;
      }
      c.record = updated.toJson().encode();
      s.append(EventType.CALL_RECONCILED.wireName(), turnId, callId.value(), now,
          new JsonObject().put("outcome", outcome.wireName()).put("by", who).put("note", note).encode());
      return updated;
    });
  }

  // ---------------------------------------------------------------- agent loop

  @Override
  public Future<ConversationAppend> messageUser(String sessionId, long epoch, String agent, String callerId,
                                                String creator, String messageId, JsonObject entry,
                                                JsonObject eventData) {
    String encoded = entry.encode();
    String data = eventData.encode();
    return step(() -> {
      long now = now();
      active.add(sessionId);
      recent.put(sessionId, now);
      MemorySession s = fenced(sessionId, epoch);
      checkCaller(s, callerId);
      Long known = s.messages.get(messageId);
      if (known != null) {
        return new ConversationAppend(known, false, entry);
      }
      ownSession(s, agent, callerId, creator, now);
      s.updatedAt = now;
      long index = push(s, encoded);
      s.messages.put(messageId, index);
      s.append(EventType.MESSAGE_USER.wireName(), null, null, now, data);
      return new ConversationAppend(index, true, entry);
    });
  }

  @Override
  public Future<ConversationAppend> modelResponse(String sessionId, long epoch, long step, String turnId,
                                                  JsonObject entry, JsonObject eventData) {
    String encoded = entry.encode();
    String data = eventData.encode();
    return step(() -> {
      long now = now();
      recent.put(sessionId, now);
      MemorySession s = fenced(sessionId, epoch);
      Long known = s.modelSteps.get(step);
      if (known != null) {
        return new ConversationAppend(known, false, new JsonObject(s.conversation.get(known.intValue())));
      }
      if (step != s.lastStep + 1) {
        throw new RatchetException(ErrorCode.STEP_OUT_OF_ORDER, "session " + sessionId + ": step " + step
            + " does not follow the last recorded step " + s.lastStep);
      }
      s.updatedAt = now;
      long index = push(s, encoded);
      s.modelSteps.put(step, index);
      s.lastStep = step;
      s.append(EventType.MODEL_RESPONSE.wireName(), turnId, null, now, data);
      return new ConversationAppend(index, true, entry);
    });
  }

  @Override
  public Future<ConversationAppend> roundEnded(String sessionId, long epoch, String endId, String eventType,
                                               JsonObject entry, JsonObject eventData) {
    String encoded = entry.encode();
    String data = eventData.encode();
    return step(() -> {
      MemorySession s = fenced(sessionId, epoch);
      Long known = s.ends.get(endId);
      if (known != null) {
        return new ConversationAppend(known, false, entry);
      }
      long now = now();
      s.updatedAt = now;
      long index = push(s, encoded);
      s.ends.put(endId, index);
      s.append(eventType, null, null, now, data);
      return new ConversationAppend(index, true, entry);
    });
  }

  private static long push(MemorySession s, String entry) {
    s.conversation.add(entry);
    return s.conversation.size() - 1;
  }

  @Override
  public Future<List<JsonObject>> conversation(String sessionId) {
    return step(() -> {
      MemorySession s = sessions.get(sessionId);
      List<JsonObject> list = new ArrayList<>();
      if (s != null) {
        s.conversation.forEach(e -> list.add(new JsonObject(e)));
      }
      return list;
    });
  }

  // ---------------------------------------------------------------- reads

  @Override
  public Future<List<JsonObject>> events(String sessionId, String afterId, int count) {
    return step(() -> {
      MemorySession s = sessions.get(sessionId);
      return s == null ? new ArrayList<JsonObject>() : MemoryReads.events(sessionId, s, afterId, count);
    });
  }

  @Override
  public Future<JsonObject> sessionInfo(String sessionId) {
    return step(() -> {
      MemorySession s = sessions.get(sessionId);
      return s == null ? new JsonObject() : MemoryReads.sessionInfo(s);
    });
  }

  @Override
  public Future<List<String>> recentSessions(int offset, int limit) {
    return step(() -> {
      List<String> all = new ArrayList<>(recent.keySet());
      all.sort(Comparator.<String>comparingLong(recent::get).thenComparing(Comparator.naturalOrder()).reversed());
      return new ArrayList<>(all.subList(Math.min(offset, all.size()), Math.min(offset + Math.max(0, limit),
          all.size())));
    });
  }

  @Override
  public Future<Map<String, String>> sessionAgents(List<String> sessionIds) {
    return step(() -> {
      Map<String, String> agents = new HashMap<>();
      for (String id : sessionIds) {
        MemorySession s = sessions.get(id);
        if (s != null && s.agent != null) {
          agents.put(id, s.agent);
        }
      }
      return agents;
    });
  }

  @Override
  public Future<List<String>> activeSessions() {
    return step(() -> new ArrayList<>(active));
  }

  @Override
  public Future<List<String>> withWorkInFlight(List<String> sessionIds) {
    return step(() -> {
      List<String> busy = new ArrayList<>();
      for (String id : sessionIds) {
        MemorySession s = sessions.get(id);
        if (s != null && (!s.inflight.isEmpty()
            || OpenRound.in(s.conversation.stream().map(JsonObject::new).toList()))) {
          busy.add(id);
        }
      }
      return busy;
    });
  }

  @Override
  public Future<Void> markIdle(String sessionId) {
    return step(() -> {
      active.remove(sessionId);
      return null;
    });
  }

  @Override
  public Future<Void> reachable() {
    return step(() -> null);
  }

  @Override
  public Future<Void> ping() {
    return step(() -> null);
  }

  @Override
  public String describe() {
    return "in-memory journal";
  }

  @Override
  public Future<Void> close() {
    return Future.succeededFuture();
  }

  // ---------------------------------------------------------------- retention (MemoryRetention)

  @Override
  public Future<List<SessionActivity>> activeSince(long since, int limit) {
    return step(() -> retention.activeSince(since, limit));
  }

  @Override
  public Future<Void> schedule(String sessionId, long dueAt) {
    return step(() -> {
      retention.schedule(sessionId, dueAt);
      return null;
    });
  }

  @Override
  public Future<List<String>> due(long now, int limit) {
    return step(() -> retention.due(now, limit));
  }

  @Override
  public Future<SessionHistory> history(String sessionId) {
    return step(() -> retention.history(sessionId));
  }

  @Override
  public Future<Removal> remove(String sessionId, long epoch, RemovalPlan plan) {
    return step(() -> retention.remove(sessionId, fenced(sessionId, epoch), plan));
  }

  @Override
  public Future<Boolean> forget(String sessionId, long epoch, long seenUpdatedAt, long archivedBefore) {
    return step(() -> {
      boolean forgotten = retention.forget(sessionId, fenced(sessionId, epoch), seenUpdatedAt, archivedBefore);
      if (forgotten) {
        active.remove(sessionId);
      }
      return forgotten;
    });
  }

  @Override
  public Future<Void> refuseForgotten() {
    return Future.succeededFuture();
  }

  @Override
  public Future<Boolean> erase(String sessionId, String who) {
    return step(() -> {
      active.remove(sessionId);
      pending.removeIf(p -> p.member().startsWith(sessionId + "\n"));
      return retention.erase(sessionId, who);
    });
  }

  @Override
  public Future<List<JsonObject>> audit(int count) {
    return step(() -> retention.audit(count));
  }

  @Override
  public Future<Integer> importSession(SessionHistory history) {
    return step(() -> retention.importSession(history));
  }

  // ---------------------------------------------------------------- helpers

  /** The session when {@code epoch} is its owner's, else FENCED (J4). */
  private MemorySession fenced(String sessionId, long epoch) {
    MemorySession s = sessions.get(sessionId);
    if (s == null) {
      retention.notErased(sessionId);
    }
    if (s == null || s.epoch != epoch) {
      throw new RatchetException(ErrorCode.FENCED, "this node no longer owns the session: session owned by a newer epoch");
    }
    return s;
  }

  /** A session's caller never changes; checked before anything of the session is read (rule of the caller). */
  private static void checkCaller(MemorySession s, String callerId) {
    if (s.agent != null && callerId != null && !callerId.isEmpty() && !callerId.equals(s.caller)) {
      throw new RatchetException(ErrorCode.CALLER_MISMATCH, s.caller != null ? "session belongs to another caller"
          : "session was created without a caller; its caller cannot be set later");
    }
  }

  /** Gives a new session its agent, caller and creator; fails when the session belongs to another agent. */
  private static void ownSession(MemorySession s, String agent, String callerId, String creator, long now) {
    if (s.agent != null) {
      if (!s.agent.equals(agent)) {
        throw new RatchetException(ErrorCode.AGENT_MISMATCH, "session belongs to agent " + s.agent);
      }
      return;
    }
    s.agent = agent;
    s.createdAt = now;
    if (callerId != null && !callerId.isEmpty()) {
      s.caller = callerId;
    }
    if (creator != null && !creator.isEmpty()) {
      s.creator = creator;
    }
  }

  /**
   * Runs one step whole under the journal's lock; its answer, or its refusal, arrives afterwards on
   * the caller's context, never inside the call, as a reply from a store would.
   */
  private <T> Future<T> step(Supplier<T> step) {
    T value = null;
    RuntimeException error = null;
    synchronized (this) {
      try {
        value = step.get();
      } catch (RuntimeException e) {
        error = e;
      }
    }
    Promise<T> promise = Promise.promise();
    T answer = value;
    RuntimeException failure = error instanceof RatchetException ? error
        : error == null ? null : new RatchetException(ErrorCode.JOURNAL_ERROR, "the journal refused a step: " + error, error);
    io.vertx.core.Context caller = Vertx.currentContext();
    (caller != null ? caller : vertx.getOrCreateContext()).runOnContext(v -> {
      if (failure != null) {
        promise.fail(failure);
      } else {
        promise.complete(answer);
      }
    });
    return promise.future();
  }

  private long now() {
    return clock.millis();
  }
}
