package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.ApprovalRecord;
import dev.ratchet.runtime.CallEvent;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.Redaction;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolNotSentException;
import dev.ratchet.runtime.ToolResult;
import dev.ratchet.runtime.impl.Timeouts;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * The attempts of a call once it may run: {@code CallTool} (retried per policy, same idempotency
 * key), {@code CallSingleAttemptTool} ("started" journaled before the send, J2, never sent twice),
 * and recovery of a write that may have left before a restart (J3, J8).
 */
final class Attempts {

  private static final Logger LOG = LoggerFactory.getLogger(Attempts.class);

  private final SessionEngine engine;
  private final StepWriter writer;

  Attempts(SessionEngine engine) {
    this.engine = engine;
    this.writer = engine.writer;
  }

  /** How an attempt ended, with its value and a message for the model. */
  record Attempt(AttemptKind kind, Object value, String error, long retryAfterMillis) {
    /** {@code retryAfterMillis} of an attempt that no later attempt could improve on: it is judged as the last. */
    static final long NEVER = -1;

  }

  /** CallTool: a read or idempotent write, retried per policy with the same idempotency key. */
  void attempt(TurnRun run, CallSlot slot, int attempt, boolean anyUncertain, ApprovalRecord approval) {
    if (writer.closed()) {
      slot.done.tryFail(writer.notOwner());
      return;
    }
    if (slot.isWrite() && attempt == 1 && slot.startJournaled != null) {
      writer.emit(EventType.CALL_STARTED.wireName(), run.turn.turnId(), slot.callId.value(), slot.startJournaled);
      send(run, slot, attempt, anyUncertain, approval);
      return;
    }
    if (slot.isWrite() && !announcesSending(slot)) {
      // a fenced step before every write attempt: a node that lost the session sends nothing more (J4)
      JsonObject data = slot.startData(attempt);
      writer.callStarted(run.turn.turnId(), slot, attempt, data).onComplete(ar -> {
        if (ar.failed()) {
          slot.done.tryFail(ar.cause());
        } else if (ar.result() != null) {
          slot.done.tryComplete(ar.result());
        } else {
          writer.emit(EventType.CALL_STARTED.wireName(), run.turn.turnId(), slot.callId.value(), data);
          send(run, slot, attempt, anyUncertain, approval);
        }
      });
      return;
    }
    send(run, slot, attempt, anyUncertain, approval);
  }

  private void send(TurnRun run, CallSlot slot, int attempt, boolean anyUncertain, ApprovalRecord approval) {
    Tool tool = slot.entry.tool();
    int max = tool.retryPolicy().maxAttempts();
    SendGate gate = slot.isWrite() && announcesSending(slot) && !(attempt == 1 && slot.startJournaled != null)
        ? new SendGate() : null;
    invoke(slot, attempt, gate == null ? null : journalStartWhenSending(run, slot, attempt, gate)).onComplete(ar -> {
      if (gate != null && gate.end(slot)) {
        return;
      }
      Attempt a = gate == null ? classify(ar.succeeded() ? ar.result() : null, ar.cause()) : gate.classify(ar);
      // a read that was answered ran, whatever the answer: it can no longer say "did not run"
      boolean uncertain = anyUncertain || a.kind == AttemptKind.UNCERTAIN
          || a.kind == AttemptKind.RETRYABLE && !slot.isWrite();
      OutcomeRules.Verdict verdict = OutcomeRules.judge(tool.effectClass(), a.kind,
          a.retryAfterMillis == Attempt.NEVER ? Math.max(attempt, max) : attempt, max, anyUncertain);
      if (verdict.retry()) {
        long delay = Math.max(tool.retryPolicy().backoffMillis(attempt + 1), a.retryAfterMillis);
        JsonObject data = new JsonObject().put("attempt", attempt).put("error", Redaction.scrub(a.error))
            .put("retryInMs", delay);
        writer.attemptFailed(run.turn.turnId(), slot, data).onComplete(j -> {
          if (j.failed() && StepWriter.isFencing(j.cause())) {
            slot.done.tryFail(writer.notOwner());
            return;
          }
          writer.emit(EventType.CALL_ATTEMPT_FAILED.wireName(), run.turn.turnId(), slot.callId.value(), data);
          TurnSpans.attemptFailed(slot, attempt, Redaction.scrub(a.error), delay);
          TurnSpans.ids(engine.sessionId, run, slot).info(LOG, "attempt {} of {} failed, retrying in {} ms", attempt,
              tool.name(), delay);
          engine.clock.setTimer(Math.max(1, delay), t -> attempt(run, slot, attempt + 1, uncertain, approval));
        });
        return;
      }
      finish(run, slot, verdict, a, attempt, approval);
    });
  }

  /** CallSingleAttemptTool: journal "started" before the request leaves (J2); never sent twice. */
  void singleAttempt(TurnRun run, CallSlot slot, ApprovalRecord approval) {
    if (slot.prior.wasStarted()) {
      // the runtime stopped after "started": the request may have left, so it is never sent again
      recoverStarted(run, slot, approval);
      return;
    }
    if (writer.closed()) {
      slot.done.tryFail(writer.notOwner());
      return;
    }
    if (slot.startJournaled == null && announcesSending(slot)) {
      SendGate gate = new SendGate();
      invoke(slot, 1, journalStartWhenSending(run, slot, 1, gate)).onComplete(res -> {
        if (!gate.end(slot)) {
          Attempt a = gate.classify(res);
          finish(run, slot, OutcomeRules.judge(EffectClass.NON_IDEMPOTENT_WRITE, a.kind, 1, 1, false), a, 1, approval);
        }
      });
      return;
    }
    JsonObject data = slot.startJournaled != null ? slot.startJournaled : slot.startData(1);
    Future<CallResult> started = slot.startJournaled != null ? Future.succeededFuture(null)
        : writer.callStarted(run.turn.turnId(), slot, 1, data);
    started.onComplete(ar -> {
      if (ar.failed()) {
        slot.done.tryFail(ar.cause());
        return;
      }
      if (ar.result() != null) {
        slot.done.tryComplete(ar.result());
        return;
      }
      writer.emit(EventType.CALL_STARTED.wireName(), run.turn.turnId(), slot.callId.value(), data);
      invoke(slot, 1, null).onComplete(res -> {
        Attempt a = classify(res.succeeded() ? res.result() : null, res.cause());
        finish(run, slot, OutcomeRules.judge(EffectClass.NON_IDEMPOTENT_WRITE, a.kind, 1, 1, false), a, 1, approval);
      });
    });
  }

  private void recoverStarted(TurnRun run, CallSlot slot, ApprovalRecord approval) {
    Tool tool = slot.entry.tool();
    String unknown = "the runtime stopped while this write's request may have been in flight; it was not sent again."
        + " Check with the provider before calling it again";
    if (!tool.supportsLookup()) {
      engine.runner.complete(run, slot, CallEvent.RECOVERED_UNKNOWN, Outcome.OUTCOME_UNKNOWN, null, unknown,
          slot.prior.attempts(), false, approval);
      return;
    }
    lookup(slot, Math.max(1, slot.prior.attempts())).onComplete(ar -> {
      if (ar.succeeded() && ar.result().isPresent()) {
        ToolResult found = ar.result().get();
        engine.runner.complete(run, slot, CallEvent.COMPLETED, Outcome.SUCCEEDED, found.value(), null,
            slot.prior.attempts(), false, approval);
      } else {
        engine.runner.complete(run, slot, CallEvent.RECOVERED_UNKNOWN, Outcome.OUTCOME_UNKNOWN, null, unknown
            + (ar.failed() ? " (looking it up failed: " + ar.cause().getMessage() + ")" : " (not found by lookup)"),
            slot.prior.attempts(), false, approval);
      }
    });
  }

  /**
   * Recovery of an idempotent write (J3): look for an earlier effect first; resend with the same key
   * only if none, and only within what is left of its retry budget (J8): the attempts journaled
   * before the restart count.
   */
  void lookupThenAttempt(TurnRun run, CallSlot slot, ApprovalRecord approval) {
    Tool tool = slot.entry.tool();
    int sent = Math.max(1, slot.prior.attempts());
    if (!tool.supportsLookup()) {
      resendWithinBudget(run, slot, sent, approval, "");
      return;
    }
    lookup(slot, sent).onComplete(ar -> {
      if (ar.succeeded() && ar.result().isPresent()) {
        engine.runner.complete(run, slot, CallEvent.COMPLETED, Outcome.SUCCEEDED, ar.result().get().value(), null,
            sent, false, approval);
      } else {
        resendWithinBudget(run, slot, sent, approval, ar.failed()
            ? " (looking it up failed: " + ar.cause().getMessage() + ")" : " (not found by lookup)");
      }
    });
  }

  private void resendWithinBudget(TurnRun run, CallSlot slot, int sent, ApprovalRecord approval, String lookedUp) {
    int max = slot.entry.tool().retryPolicy().maxAttempts();
    if (sent < max) {
      attempt(run, slot, sent + 1, true, approval);
      return;
    }
    engine.runner.complete(run, slot, CallEvent.RECOVERED_UNKNOWN, Outcome.OUTCOME_UNKNOWN, null, "sent " + sent
        + " times, its whole retry budget; the runtime stopped while the last request may have been in flight, so it"
        + " was not sent again" + lookedUp + ". Check with the provider before calling it again", sent, false, approval);
  }

  private void finish(TurnRun run, CallSlot slot, OutcomeRules.Verdict verdict, Attempt a, int attempts,
                      ApprovalRecord approval) {
    String error = null;
    if (verdict.outcome() != Outcome.SUCCEEDED) {
      String base = a.error == null ? "the tool failed" : a.error;
      if (attempts > 1) {
        // the "did not run" of the last attempt's error goes to the front once, for every attempt
        base = "failed after " + attempts + " attempts: " + (verdict.notRun() ? TurnRunner.withoutNotRun(base) : base);
      }
      error = verdict.notRun() ? TurnRunner.notRun(base) : base;
    }
    engine.runner.complete(run, slot, CallEvent.COMPLETED, verdict.outcome(), a.value, error, attempts, false,
        approval);
  }

  // ------------------------------------------------------------------ calling the tool

  private Future<ToolResult> invoke(CallSlot slot, int attempt, Supplier<Future<Void>> beforeSend) {
    Tool tool = slot.entry.tool();
    long timeout = Math.max(1, tool.timeout().toMillis());
    if (beforeSend == null) {
      ToolInvocation inv = new ToolInvocation(engine.sessionId, slot.callId, slot.key, attempt,
          slot.call.arguments().copy(), engine.clock.millis() + timeout, engine.callerId(), null,
          slot.span.traceparent(), engine.clock);
      return Timeouts.within(engine.clock, engine.context, () -> tool.invoke(inv), timeout, tool.name());
    }
    // the attempt's time starts again once it announces its sending: waiting for a connection is not the request's
    return Timeouts.within(engine.clock, engine.context, restart -> tool.invoke(new ToolInvocation(engine.sessionId,
        slot.callId, slot.key, attempt, slot.call.arguments().copy(), engine.clock.millis() + timeout,
        engine.callerId(), () -> beforeSend.get().onSuccess(v -> restart.run()), slot.span.traceparent(),
        engine.clock)), timeout, tool.name());
  }

  /** The tool's reason why the call could never run, asked before anyone approves it; null when none or unknown. */
  Future<String> cannotRun(CallSlot slot) {
    Tool tool = slot.entry.tool();
    long timeout = Math.max(1, tool.timeout().toMillis());
    ToolInvocation inv = new ToolInvocation(engine.sessionId, slot.callId, slot.key, 0,
        slot.call.arguments().copy(), engine.clock.millis() + timeout, engine.callerId(), null, null, engine.clock);
    return Timeouts.within(engine.clock, engine.context, () -> tool.cannotRun(inv), timeout, tool.name() + " check")
        .otherwise((String) null);
  }

  private Future<Optional<ToolResult>> lookup(CallSlot slot, int attempt) {
    Tool tool = slot.entry.tool();
    long timeout = Math.max(1, tool.timeout().toMillis());
    ToolInvocation inv = new ToolInvocation(engine.sessionId, slot.callId, slot.key, attempt,
        slot.call.arguments().copy(), engine.clock.millis() + timeout, engine.callerId(), null, null, engine.clock);
    return Timeouts.within(engine.clock, engine.context, () -> tool.lookup(inv), timeout, tool.name() + " lookup");
  }

  static boolean announcesSending(CallSlot slot) {
    return slot.entry != null && slot.entry.tool().announcesSending();
  }

  /**
   * What {@link ToolInvocation#sending()} runs for an attempt of a write whose tool announces it:
   * journals "started" (J2, J8) once the tool has its connection. Refused once the attempt ended or
   * this node no longer runs the session, so that nothing is sent then.
   */
  private Supplier<Future<Void>> journalStartWhenSending(TurnRun run, CallSlot slot, int attempt, SendGate gate) {
    return () -> engine.onContext(() -> {
      if (gate.opened) {
        return Future.failedFuture(new ToolNotSentException("this attempt already announced its sending"));
      }
      if (gate.ended || slot.done.future().isComplete()) {
        return Future.failedFuture(new ToolNotSentException("the attempt already ended"));
      }
      if (writer.closed()) {
        slot.done.tryFail(writer.notOwner());
        return Future.failedFuture(new ToolNotSentException("session " + engine.sessionId
            + " is no longer run here"));
      }
      gate.opened = true;
      JsonObject data = slot.startData(attempt);
      return writer.callStarted(run.turn.turnId(), slot, attempt, data).transform(ar -> {
        if (ar.failed()) {
          slot.done.tryFail(ar.cause());
          return Future.failedFuture(new ToolNotSentException("the attempt could not be journaled"));
        }
        if (ar.result() != null) {
          slot.done.tryComplete(ar.result());
          return Future.failedFuture(new ToolNotSentException("the call already has an outcome"));
        }
        writer.emit(EventType.CALL_STARTED.wireName(), run.turn.turnId(), slot.callId.value(), data);
        return gate.ended ? Future.failedFuture(new ToolNotSentException("the attempt already ended"))
            : Future.<Void>succeededFuture();
      });
    });
  }

  /** One attempt of a tool that announces sending: whether it was journaled as started, and whether it ended. */
  private static final class SendGate {
    boolean opened;
    boolean ended;

    /** Ends the attempt; true when the gate already settled the call (an earlier outcome, or fencing). */
    boolean end(CallSlot slot) {
      ended = true;
      return slot.done.future().isComplete();
    }

    /** An attempt that failed before it announced sending never left (rule 7), whatever the failure. */
    Attempt classify(AsyncResult<ToolResult> ar) {
      Attempt a = Attempts.classify(ar.succeeded() ? ar.result() : null, ar.cause());
      return ar.failed() && !opened && a.kind != AttemptKind.NOT_SENT ? new Attempt(AttemptKind.NOT_SENT, null, a.error
          + " (before its request was sent)", 0) : a;
    }
  }

  static Attempt classify(ToolResult result, Throwable failure) {
    if (failure != null) {
      if (failure instanceof ToolNotSentException notSent) {
        return new Attempt(AttemptKind.NOT_SENT, null, failure.getMessage(),
            notSent.worthRetrying() ? notSent.retryAfterMillis() : Attempt.NEVER);
      }
      String msg = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
      return new Attempt(AttemptKind.UNCERTAIN, null, msg, 0);
    }
    if (result == null) {
      return new Attempt(AttemptKind.SUCCESS, null, null, 0);
    }
    switch (result.outcome()) {
      case SUCCEEDED:
        return new Attempt(AttemptKind.SUCCESS, result.value(), null, 0);
      case OUTCOME_UNKNOWN:
        return new Attempt(AttemptKind.UNCERTAIN, result.value(), result.error(), result.retryAfterMillis());
      default:
        return new Attempt(result.retryable() ? AttemptKind.RETRYABLE : AttemptKind.REJECTED, result.value(),
            result.error(), result.retryAfterMillis());
    }
  }
}
