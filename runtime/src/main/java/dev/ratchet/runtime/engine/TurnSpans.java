package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.ApprovalRecord;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.TraceSpan;
import dev.ratchet.runtime.TurnTracer;
import dev.ratchet.runtime.impl.LogIds;

/**
 * The spans of a running turn, named and described as docs/OBSERVABILITY.md says: the OpenTelemetry
 * semantic conventions for generative AI where they have a name, {@code ratchet.*} for the rest.
 */
final class TurnSpans {

  private TurnSpans() {
  }

  static void startTurn(TurnRun run, String sessionId) {
    run.span = TurnTracer.current().turn(sessionId, run.turn.turnId(), run.traceparent)
        .attribute("gen_ai.conversation.id", sessionId)
        .attribute("ratchet.session.id", sessionId)
        .attribute("ratchet.turn.id", run.turn.turnId())
        .attribute("ratchet.turn.calls", run.slots.size());
    if (run.recovering) {
      run.span.attribute("ratchet.turn.resumed", "true");
    }
  }

  static void startCall(TurnRun run, CallSlot slot) {
    if (run.span == TraceSpan.OFF) {
      // tracing off: no span name is built for the call
      return;
    }
    String name = slot.call.name();
    slot.span = run.span.child("execute_tool " + name)
        .attribute("gen_ai.operation.name", "execute_tool")
        .attribute("gen_ai.tool.name", name)
        .attribute("gen_ai.tool.type", "function")
        .attribute("gen_ai.tool.call.id", slot.call.modelCallId() != null ? slot.call.modelCallId() : slot.callId.value())
        .attribute("ratchet.call.id", slot.callId.value())
        .attribute("ratchet.call.index", slot.index);
    if (slot.entry != null) {
      slot.span.attribute("ratchet.effect_class", slot.effectClass().wireName());
    }
  }

  /** The span of a wait for a person's decision, under the call's. */
  static TraceSpan approvalWait(CallSlot slot, String reason) {
    if (slot.span == TraceSpan.OFF) {
      return TraceSpan.OFF;
    }
    return slot.span.child("ratchet.approval " + slot.call.name())
        .attribute("ratchet.call.id", slot.callId.value())
        .attribute("ratchet.approval.reason", reason);
  }

  static void approvalEnded(TraceSpan wait, ApprovalRecord decision, Throwable failure) {
    if (failure != null) {
      wait.failed(failure.getClass().getSimpleName(), failure.getMessage());
    } else if (decision != null) {
      wait.attribute("ratchet.approval.status", decision.status());
      if (decision.approver() != null) {
        wait.attribute("ratchet.approval.approver", decision.approver());
      }
    }
    wait.end();
  }

  static void attemptFailed(CallSlot slot, int attempt, String error, long retryInMillis) {
    if (slot.span == TraceSpan.OFF) {
      return;
    }
    slot.span.event("ratchet.attempt.failed", "ratchet.attempt", attempt, "error.message", error,
        "ratchet.retry_in_ms", retryInMillis);
  }

  static void callEnded(CallSlot slot, CallResult record) {
    if (slot.span == TraceSpan.OFF) {
      return;
    }
    slot.span.attribute("ratchet.outcome", record.outcome().wireName())
        .attribute("ratchet.attempts", record.attempts());
    if (record.skipped()) {
      slot.span.attribute("ratchet.skipped", "true");
    }
    if (record.approval() != null && record.approval().approver() != null) {
      slot.span.attribute("ratchet.approval.approver", record.approval().approver())
          .attribute("ratchet.approval.status", record.approval().status());
    }
    if (record.outcome() != Outcome.SUCCEEDED) {
      slot.span.failed(record.outcome().wireName(), record.error());
    }
    slot.span.end();
  }

  /** The ids a log line about a call carries, so that it can be found beside the call's trace. */
  static LogIds ids(String sessionId, TurnRun run, CallSlot slot) {
    return new LogIds(sessionId, run.turn.turnId(), slot.callId.value(), slot.span.traceId());
  }

  static void turnEnded(TurnRun run, Throwable failure) {
    if (failure != null) {
      run.span.failed(failure.getClass().getSimpleName(), failure.getMessage());
    }
    for (CallSlot slot : run.slots) {
      slot.span.end();
    }
    run.span.end();
  }
}
