package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.ApprovalRecord;
import dev.ratchet.runtime.CallEvent;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.Redaction;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.impl.JsonText;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs a journaled turn (rules 2-6): reads at once and concurrently, writes through the write queue,
 * approvals where asked, later writes skipped after a bad one, every outcome through the step
 * writer, and the results journaled before they are delivered.
 */
final class TurnRunner {

  private static final Logger LOG = LoggerFactory.getLogger(TurnRunner.class);

  private final SessionEngine engine;

  TurnRunner(SessionEngine engine) {
    this.engine = engine;
  }

  Future<TurnResult> execute(Turn turn, List<CallSlot> slots, boolean recovering, String traceparent) {
    TurnRun run = new TurnRun(turn, slots, recovering);
    run.traceparent = traceparent;
    engine.running.put(turn.turnId(), run);
    TurnSpans.startTurn(run, engine.sessionId);

    List<Future<CallResult>> all = new ArrayList<>();
    for (CallSlot slot : slots) {
      all.add(slot.done.future());
      beginRunning(slot);
      TurnSpans.startCall(run, slot);
      if (slot.prior.isDone()) {
        TurnSpans.callEnded(slot, slot.prior.record());
        slot.done.complete(slot.prior.record());
        if (slot.isWrite() && slot.prior.record().outcome() != Outcome.SUCCEEDED) {
          stopWrites(run, slot);
        }
      } else if (!slot.isWrite()) {
        // reads, and calls that cannot run at all, do not wait for the write queue
        runRead(run, slot);
      }
    }
    for (CallSlot slot : slots) {
      if (slot.isWrite() && !slot.prior.isDone()) {
        engine.queue.enqueue(run, slot);
      }
    }
    Future.join(all).onComplete(ar -> finishTurn(run));
    return run.result.future().onComplete(ar -> TurnSpans.turnEnded(run, ar.cause()));
  }

  private void finishTurn(TurnRun run) {
    List<CallResult> results = new ArrayList<>();
    for (CallSlot slot : run.slots) {
      if (slot.done.future().failed()) {
        engine.running.remove(run.turn.turnId());
        run.result.tryFail(slot.done.future().cause());
        return;
      }
      results.add(slot.done.future().result());
    }
    if (run.journaledResult != null) {
      engine.running.remove(run.turn.turnId());
      engine.writer.emit(EventType.TURN_COMPLETED.wireName(), run.turn.turnId(), null, () -> resultJson(run, run.journaledResult));
      run.result.tryComplete(run.journaledResult);
      return;
    }
    TurnResult result = new TurnResult(engine.sessionId, run.turn.turnId(), results);
    engine.writer.turnCompleted(result).onComplete(ar -> {
      engine.running.remove(run.turn.turnId());
      if (ar.succeeded()) {
        engine.writer.emit(EventType.TURN_COMPLETED.wireName(), run.turn.turnId(), null, () -> resultJson(run, ar.result()));
        run.result.tryComplete(ar.result());
      } else {
        run.result.tryFail(ar.cause());
      }
    });
  }

  /**
   * {@link TurnResult#toJson()}, made of the {@code call.completed} events' data where a call's
   * record is the one its event carried, so that no record is turned into JSON twice.
   */
  private static JsonObject resultJson(TurnRun run, TurnResult result) {
    JsonArray array = new JsonArray(new ArrayList<>(result.calls().size()));
    for (int i = 0; i < result.calls().size(); i++) {
      CallResult c = result.calls().get(i);
      CallSlot slot = i < run.slots.size() ? run.slots.get(i) : null;
      array.add(slot != null && slot.eventRecord == c ? slot.eventJson : c.toJson());
    }
    return new JsonObject().put("sessionId", result.sessionId()).put("turnId", result.turnId()).put("results", array);
  }

  private void runRead(TurnRun run, CallSlot slot) {
    if (slot.problem != null) {
      complete(run, slot, CallEvent.REFUSED, Outcome.FAILED, null, notRun(slot.problem), 0, false, null);
      return;
    }
    if (slot.prior.approval() == null && slot.askReason() == null) {
      engine.attempts.attempt(run, slot, 1, false, null);
      return;
    }
    // a read that asks waits for its own decision only: the other reads of the turn run meanwhile
    engine.approvals.approval(run, slot).onComplete(ar -> {
      beginRunning(slot);
      if (ar.failed()) {
        slot.done.tryFail(ar.cause());
      } else if (ar.result() != null && !ar.result().approved()) {
        complete(run, slot, CallEvent.REJECTED, Outcome.FAILED, null, Approvals.refused(ar.result()), 0, false,
            ar.result());
      } else {
        Approvals.decided(slot, ar.result());
        engine.attempts.attempt(run, slot, 1, false, ar.result());
      }
    });
  }

  void runWrite(TurnRun run, CallSlot slot) {
    slot.dequeued = true;
    beginRunning(slot);
    if (run.writesStopped) {
      complete(run, slot, CallEvent.SKIPPED, Outcome.FAILED, null, CallResult.NOT_RUN_PREFIX
          + ": an earlier write of this turn (" + run.stoppedBy + ") did not succeed, so this write was skipped", 0,
          true, slot.prior.approval());
      return;
    }
    if (slot.problem != null) {
      complete(run, slot, CallEvent.REFUSED, Outcome.FAILED, null, notRun(slot.problem), 0, false, null);
      return;
    }
    // a write that would ask a person first says whether it could run at all: one that never could is not asked about
    boolean wouldAsk = slot.startJournaled == null && slot.prior.approval() == null && slot.askReason() != null;
    (wouldAsk ? engine.attempts.cannotRun(slot) : Future.<String>succeededFuture(null)).onComplete(why -> {
      if (why.result() != null) {
        complete(run, slot, CallEvent.REFUSED, Outcome.FAILED, null, notRun(why.result()), 0, false, null);
      } else {
        approveThenRun(run, slot);
      }
    });
  }

  private void approveThenRun(TurnRun run, CallSlot slot) {
    (slot.startJournaled != null ? Future.<ApprovalRecord>succeededFuture(null)
        : engine.approvals.approval(run, slot)).onComplete(ar -> {
          if (ar.failed()) {
            slot.done.tryFail(ar.cause());
            return;
          }
          ApprovalRecord approval = ar.result();
          if (approval != null) {
            beginRunning(slot);
          }
          if (approval != null && !approval.approved()) {
            complete(run, slot, CallEvent.REJECTED, Outcome.FAILED, null, Approvals.refused(approval), 0, false,
                approval);
            return;
          }
          Approvals.decided(slot, approval);
          if (slot.effectClass() == EffectClass.NON_IDEMPOTENT_WRITE) {
            engine.attempts.singleAttempt(run, slot, approval);
          } else if (run.recovering && slot.prior.wasStarted()) {
            // only a write journaled as started may have reached the provider before the restart
            engine.attempts.lookupThenAttempt(run, slot, approval);
          } else {
            engine.attempts.attempt(run, slot, 1, false, approval);
          }
        });
  }

  /**
   * Marks when a call starts running, so that its duration leaves out its wait in the write queue
   * and for approval. A write journaled as started before a restart ran since that start.
   */
  private void beginRunning(CallSlot slot) {
    if (!slot.prior.wasStarted() || slot.prior.startedAt() <= 0) {
      slot.startedAt = engine.clock.millis();
    } else {
      slot.startedAt = slot.prior.startedAt();
    }
  }

  /** Gives a call its outcome by {@code event}: the record goes to the step writer's next group commit. */
  void complete(TurnRun run, CallSlot slot, CallEvent event, Outcome outcome, Object value, String error,
                int attempts, boolean skipped, ApprovalRecord approval) {
    try {
      slot.move(event);
    } catch (IllegalStateException e) {
      TurnSpans.ids(engine.sessionId, run, slot).error(LOG, "{}", e.getMessage());
      slot.done.tryFail(e);
      return;
    }
    value = Redaction.scrubValue(value); // whatever a tool source missed never reaches the journal (J6)
    error = Redaction.scrub(error);
    boolean truncated = false;
    slot.resultText = null;
    int maxResultBytes = engine.options.maxResultBytes();
    if (outcome == Outcome.SUCCEEDED && value != null) {
      String encoded = JsonText.encode(value);
      int size = JsonText.utf8Length(encoded);
      slot.resultText = encoded;
      if (size > maxResultBytes) {
        slot.resultText = null;
        if (slot.isWrite()) {
          value = encoded.substring(0, Math.min(encoded.length(), maxResultBytes / 2));
          truncated = true;
        } else {
          outcome = Outcome.FAILED;
          value = null;
          error = "the result is " + size + " bytes, over the limit of " + maxResultBytes
              + " bytes; ask for less (narrow the query or page through it)";
        }
      }
    }
    CallResult record = new CallResult(slot.index, slot.callId, slot.call.name(), slot.call.modelCallId(),
        slot.effectClass(), outcome, value, error, attempts, skipped, truncated, approval,
        Math.max(0, engine.clock.millis() - slot.startedAt), null, Approvals.waited(approval));
    if (slot.isWrite() && outcome != Outcome.SUCCEEDED && !skipped) {
      stopWrites(run, slot);
    }
    TurnSpans.callEnded(slot, record);
    if (outcome != Outcome.SUCCEEDED && LOG.isInfoEnabled()) {
      TurnSpans.ids(engine.sessionId, run, slot).info(LOG, "{} {} after {} attempt(s)", slot.call.name(),
          outcome.wireName(), attempts);
    }
    engine.writer.completed(run, slot, record);
  }

  void stopWrites(TurnRun run, CallSlot slot) {
    if (!run.writesStopped) {
      run.writesStopped = true;
      run.stoppedBy = slot.call.name() + " #" + slot.index;
    }
  }

  /** {@code message} without a leading "did not run" prefix. */
  static String withoutNotRun(String message) {
    return message.startsWith(CallResult.NOT_RUN_PREFIX + ": ")
        ? message.substring(CallResult.NOT_RUN_PREFIX.length() + 2) : message;
  }

  static String notRun(String message) {
    if (message != null && message.startsWith(CallResult.NOT_RUN_PREFIX)) {
      return message;
    }
    return CallResult.NOT_RUN_PREFIX + ": " + message;
  }
}
