package dev.ratchet.verticles.impl;

import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.DecisionResult;
import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.journal.SessionJournal;
import dev.ratchet.runtime.session.SessionIntake;
import dev.ratchet.runtime.session.SessionManager;
import dev.ratchet.verticles.Addresses;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;


/**
 * A node's approvals and reconciliations: any member journals a decision, and every member hears
 * of it on {@link Addresses#APPROVAL_DECIDED}, so the one that runs the session wakes the waiting
 * call.
 */
final class ApprovalDesk {

  private final Vertx vertx;
  private final SessionJournal journal;
  private final SessionIntake intake;
  private final SessionManager sessions;
  /** One consumer for the node rather than one per session: a restart deploys thousands of sessions at once. */
  private final MessageConsumer<JsonObject> decisions;

  ApprovalDesk(Vertx vertx, SessionJournal journal, SessionIntake intake, SessionManager sessions) {
    this.vertx = vertx;
    this.journal = journal;
    this.intake = intake;
    this.sessions = sessions;
    this.decisions = vertx.eventBus().consumer(Addresses.APPROVAL_DECIDED, msg -> {
      String callId = msg.body().getString("callId");
      if (callId != null) {
        sessions.approvalDecided(msg.body().getString("sessionId", ""), new CallId(callId));
      }
    });
  }

  /** Completes once this node listens for approval decisions. */
  Future<Void> ready() {
    return decisions.completion();
  }

  Future<DecisionResult> decide(ApprovalDecision decision) {
    return intake.decide(decision).onSuccess(answer -> {
      if (answer == DecisionResult.ACCEPTED) {
        vertx.eventBus().publish(Addresses.APPROVAL_DECIDED, new JsonObject()
            .put("sessionId", decision.sessionId()).put("callId", decision.callId().value()));
      }
    });
  }

  Future<CallResult> reconcile(String sessionId, CallId callId, Outcome outcome, String who, String note) {
    return journal.reconcile(sessionId, callId, outcome, who, note).onSuccess(r ->
        vertx.eventBus().publish(Addresses.events(sessionId), new JsonObject()
            .put("type", EventType.CALL_RECONCILED.wireName()).put("sessionId", sessionId)
            .put("callId", callId.value()).put("at", System.currentTimeMillis()).put("data", r.toJson())));
  }

  Future<Void> close() {
    return decisions.unregister();
  }
}
