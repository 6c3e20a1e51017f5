package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.CallStatus;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.journal.MemorySession.CallEntry;
import dev.ratchet.runtime.journal.MemorySession.TurnEntry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * The in-memory journal's steps of decisions: approval requests and decisions (J5, rule 8) with
 * the inbox's list, and reconciliation of an {@code outcome_unknown} call.
 */
record MemoryDecisionSteps(MemoryStore store, Vertx vertx) implements DecisionSteps {

  @Override
  public Future<String> approvalRequested(long epoch, ApprovalRequest request) {
    String json = request.toJson().encode();
    return store.step(vertx, () -> {
      String sessionId = request.sessionId();
      MemorySession s = store.fenced(sessionId, epoch);
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
      store.pending.add(new MemoryStore.Pending(now, sessionId + "\n" + request.callId().value()));
      return "pending";
    });
  }

  @Override
  public Future<DecisionAnswer> approvalDecided(String sessionId, CallId callId, Verdict verdict) {
    String status = verdict.status();
    String reason = verdict.reason();
    return store.step(vertx, () -> {
      MemorySession s = store.sessions.get(sessionId);
      CallEntry c = s == null ? null : s.calls.get(callId.value());
      if (c == null || c.approvalStatus == null) {
        return DecisionAnswer.UNKNOWN_CALL;
      }
      if (!"pending".equals(c.approvalStatus)) {
        store.unlist(sessionId, callId.value());
        return DecisionAnswer.ALREADY_DECIDED;
      }
      long now = store.now();
      if (!"expired".equals(status)) {
        if (!verdict.argumentsHash().equals(c.argumentsHash)) {
          return DecisionAnswer.STALE;
        }
        if (c.expiresAt > 0 && now >= c.expiresAt) {
          // fail closed: the request is journaled expired, so the inbox (which drops it) and the call agree
          decide(s, c, callId.value(), "expired", "ratchet", "approval expired", now, null);
          store.unlist(sessionId, callId.value());
          return DecisionAnswer.EXPIRED;
        }
      }
      decide(s, c, callId.value(), status, verdict.approver(), reason == null ? "" : reason, now,
          "approved".equals(status) ? verdict.editedArguments() : null);
      store.unlist(sessionId, callId.value());
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

  @Override
  public Future<CallResult> reconcile(String sessionId, CallId callId, Outcome outcome, String who, String note) {
    if (outcome == Outcome.OUTCOME_UNKNOWN) {
      return Future.failedFuture(new RatchetException(ErrorCode.INVALID_REQUEST, "reconcile to succeeded or failed"));
    }
    return store.step(vertx, () -> {
      MemorySession s = store.sessions.get(sessionId);
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
      long now = store.now();
      if (c.completedRecord == null) {
        c.completedRecord = c.record;
      }
      c.record = updated.toJson().encode();
      s.append(EventType.CALL_RECONCILED.wireName(), turnId, callId.value(), now,
          new JsonObject().put("outcome", outcome.wireName()).put("by", who).put("note", note).encode());
      return updated;
    });
  }
}
