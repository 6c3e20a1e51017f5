package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.ApprovalRecord;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.ApprovalStatus;
import dev.ratchet.runtime.CallEvent;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallStatus;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.IdempotencyKey;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.TraceSpan;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.journal.CallState;
import dev.ratchet.runtime.journal.DecisionAnswer;
import dev.ratchet.runtime.journal.SessionJournal;
import dev.ratchet.runtime.journal.Verdict;
import io.vertx.core.Future;
import io.vertx.core.Promise;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Approvals (rules 4 and 8, J5): a call asks when its turn comes and waits for its decision, which
 * may come from any node; expiry fails closed. {@link #decide} is the one way a decision is
 * journaled, for the engine and for the runtime's API alike.
 */
final class Approvals {

  private final SessionEngine engine;
  private final StepWriter writer;
  private final Map<String, Promise<ApprovalRecord>> waiters = new HashMap<>();
  /** Calls whose request is journaled as pending and that wait for nothing but its decision. */
  private final Set<String> parked = new HashSet<>();

  Approvals(SessionEngine engine) {
    this.engine = engine;
    this.writer = engine.writer;
  }

  /**
   * Journals a person's decision after the journal checks it (rule 8): any node may decide, so it
   * is not fenced. Refused unless it names a pending call and the hash of the arguments it was shown.
   */
  static Future<DecisionAnswer> decide(SessionJournal journal, String sessionId, ApprovalDecision decision) {
    return decide(journal, agent -> null, sessionId, decision);
  }

  /**
   * As {@link #decide(SessionJournal, String, ApprovalDecision)}; a decision with edited arguments
   * is taken only for a tool whose approval allows edits ({@code FORBIDDEN} otherwise) and only
   * with arguments its input schema accepts ({@code INVALID_REQUEST} naming the field otherwise),
   * the tool found by the request's agent in {@code catalogs}. A refused edit journals nothing.
   */
  static Future<DecisionAnswer> decide(SessionJournal journal, Function<String, ToolCatalog> catalogs,
                                       String sessionId, ApprovalDecision decision) {
    ApprovalStatus to = ApprovalStatus.PENDING.decide(decision.approved() ? ApprovalStatus.APPROVED
        : ApprovalStatus.REJECTED);
    if (!decision.edited()) {
      return journal.approvalDecided(sessionId, decision.callId(), new Verdict(decision.argumentsHash(),
          to.wireName(), decision.approver(), decision.reason()));
    }
    return journal.approvalRequest(sessionId, decision.callId()).compose(request -> {
      if (request == null) {
        return Future.succeededFuture(DecisionAnswer.UNKNOWN_CALL);
      }
      ToolCatalog catalog = catalogs.apply(request.agent());
      ToolCatalog.Entry entry = catalog == null ? null : catalog.get(request.tool());
      if (entry == null || !entry.approval().allowsEdit()) {
        return Future.failedFuture(new RatchetException(ErrorCode.FORBIDDEN, "tool '" + request.tool()
            + "' does not allow its arguments to be edited (approval.allowEdit is not set): approve or reject"
            + " the arguments as they are"));
      }
      String problem = entry.validator().problems(decision.arguments());
      if (problem != null) {
        return Future.failedFuture(new RatchetException(ErrorCode.INVALID_REQUEST,
            "the edited arguments are not valid for tool '" + request.tool() + "': " + problem));
      }
      return journal.approvalDecided(sessionId, decision.callId(), new Verdict(decision.argumentsHash(),
          to.wireName(), decision.approver(), decision.reason(), decision.arguments()));
    });
  }

  /**
   * The decision for {@code slot}: null when it needs none, the journaled one when it was decided,
   * else a request journaled now (or kept from before a restart) and the wait for its decision.
   */
  Future<ApprovalRecord> approval(TurnRun run, CallSlot slot) {
    ApprovalRecord known = slot.prior.approval();
    if (known != null && ApprovalStatus.fromWireName(known.status()).isDecided()) {
      return Future.succeededFuture(known);
    }
    String reason = known != null ? known.askedBecause() : slot.askReason();
    if (reason == null) {
      return Future.succeededFuture(null);
    }
    long now = engine.clock.millis();
    long requestedAt = known != null ? known.requestedAt() : now;
    long expiresAt = slot.prior.expiresAt() > 0 ? slot.prior.expiresAt()
        : engine.options.approvalTimeoutMillis() > 0 ? requestedAt + engine.options.approvalTimeoutMillis() : 0;
    ApprovalRequest request = new ApprovalRequest(engine.catalogs.agent(), engine.sessionId, run.turn.turnId(),
        slot.callId, slot.call.name(), slot.effectClass(), slot.call.arguments(),
        IdempotencyKey.argumentsHash(slot.call.arguments()), reason, requestedAt, expiresAt);
    Promise<ApprovalRecord> waiter = Promise.promise();
    waiters.put(slot.callId.value(), waiter);
    TraceSpan wait = TurnSpans.approvalWait(slot, reason);
    return writer.approvalRequested(slot, request).onComplete(ar -> {
      if (ar.failed()) {
        TurnSpans.approvalEnded(wait, null, ar.cause());
      }
    }).compose(status -> {
      if (!ApprovalStatus.PENDING.wireName().equals(status)) {
        waiters.remove(slot.callId.value());
        return writer.journal().callState(engine.sessionId, slot.callId).map(CallState::approval)
            .andThen(ar -> TurnSpans.approvalEnded(wait, ar.result(), ar.cause()));
      }
      if (waiters.containsKey(slot.callId.value())) {
        parked.add(slot.callId.value());
      }
      if (known == null) {
        writer.emit(EventType.APPROVAL_REQUESTED.wireName(), run.turn.turnId(), slot.callId.value(), request.toJson());
      }
      if (expiresAt > 0) {
        engine.clock.setTimer(Math.max(1, expiresAt - engine.clock.millis()), t -> expire(slot, request));
      }
      return waiter.future().andThen(ar -> TurnSpans.approvalEnded(wait, ar.result(), ar.cause()));
    });
  }

  /**
   * Moves a call that waited for its decision by that decision: approved goes on, else it ends. An
   * approval with edited arguments makes the call run with them, after a restart too.
   */
  static void decided(CallSlot slot, ApprovalRecord approval) {
    if (approval != null && approval.approved() && approval.edited()) {
      slot.edit(approval.editedArguments());
    }
    if (approval != null && approval.approved() && slot.status() == CallStatus.AWAITING_APPROVAL) {
      slot.move(CallEvent.APPROVED);
    }
  }

  private void expire(CallSlot slot, ApprovalRequest request) {
    if (!waiters.containsKey(slot.callId.value())) {
      return;
    }
    writer.journal().approvalDecided(engine.sessionId, slot.callId, new Verdict(request.argumentsHash(),
        ApprovalStatus.PENDING.decide(ApprovalStatus.EXPIRED).wireName(), "ratchet", "approval expired"))
        .onComplete(ar -> changed(slot.callId));
  }

  /** Wakes a call waiting for approval after its decision was journaled, possibly by another node. */
  Future<Void> changed(CallId callId) {
    Promise<ApprovalRecord> waiter = waiters.get(callId.value());
    if (waiter == null) {
      return Future.succeededFuture();
    }
    return writer.journal().callState(engine.sessionId, callId).map(state -> {
      if (state.approval() != null && ApprovalStatus.fromWireName(state.approval().status()).isDecided()) {
        waiters.remove(callId.value());
        parked.remove(callId.value());
        waiter.tryComplete(state.approval());
        writer.emit(EventType.APPROVAL_DECIDED.wireName(), null, callId.value(), state.approval().toJson());
      }
      return null;
    });
  }

  /** Ends every wait, when the session stops or is fenced. */
  void failAll(RatchetException err) {
    parked.clear();
    waiters.values().forEach(p -> p.tryFail(err));
  }

  /** Whether the call waits for a person's decision, its request journaled, and for nothing else. */
  boolean waiting(CallId callId) {
    return parked.contains(callId.value());
  }

  /** How long a call waited for its decision, from the request to the decision (across restarts too). */
  static long waited(ApprovalRecord approval) {
    return approval == null || approval.decidedAt() <= 0 || approval.requestedAt() <= 0 ? 0
        : Math.max(0, approval.decidedAt() - approval.requestedAt());
  }

  /**
   * The error of a call a person refused or whose approval expired (rule 4): it did not run, and
   * nothing invites calling it again, since that is what was refused.
   */
  static String refused(ApprovalRecord approval) {
    if (ApprovalStatus.EXPIRED.wireName().equals(approval.status())) {
      return "the tool did not run: its approval expired before anyone decided";
    }
    return "the tool did not run because a person refused it: rejected by " + approval.approver()
        + (approval.reason() == null || approval.reason().isEmpty() ? "" : ": " + approval.reason());
  }
}
