package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.Outcome;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * The session's write queue (rule 3): writes run one at a time, in the model's order, across turns.
 * It also says which write would be sent the moment the step before it is journaled, so that the
 * step writer can carry that write's "started" on it.
 */
final class WriteQueue {

  private static final Logger LOG = LoggerFactory.getLogger(WriteQueue.class);
  private static final Future<Void> IDLE = Future.succeededFuture();

  private final SessionEngine engine;
  private Future<Void> tail = IDLE;

  WriteQueue(SessionEngine engine) {
    this.engine = engine;
  }

  boolean isFree() {
    return tail.isComplete();
  }

  void enqueue(TurnRun run, CallSlot slot) {
    Future<Void> queued = tail.transform(ignored -> {
      if (engine.writer.closed()) {
        slot.done.tryFail(engine.writer.notOwner());
        return Future.succeededFuture();
      }
      try {
        engine.runner.runWrite(run, slot);
      } catch (RuntimeException e) {
        TurnSpans.ids(engine.sessionId, run, slot).error(LOG, "the write could not be run", e);
        slot.done.tryFail(e);
      }
      return slot.done.future().<Void>mapEmpty().otherwiseEmpty();
    });
    tail = queued;
    // a completed future keeps the function that made it, and with it the whole turn: a queue that
    // has run dry lets go of it, or every idle session would hold its last turn until its next write
    queued.onComplete(ar -> {
      if (tail == queued) {
        tail = IDLE;
      }
    });
  }

  /**
   * A new turn's first write, when it would be sent as soon as the turn is journaled: valid, asking
   * for no approval, and first in an idle write queue. Its "started" step then rides with the turn's.
   */
  CallSlot firstWriteToStartAtOnce(List<CallSlot> slots) {
    if (!isFree() || !engine.running.isEmpty() || engine.submission.submitting()) {
      return null;
    }
    return startsAtOnce(nextWrite(slots, -1));
  }

  /**
   * The write that the queue runs right after the writes of a group commit succeed, when it would be
   * sent at once: its "started" step then rides with that commit instead of taking its own.
   */
  CallSlot nextWriteToStartAtOnce(TurnRun run, List<TurnRun.Completion> batch) {
    if (run.recovering || run.writesStopped || engine.writer.closed()) {
      return null;
    }
    int last = -1;
    for (TurnRun.Completion c : batch) {
      if (c.slot().isWrite()) {
        if (c.record().outcome() != Outcome.SUCCEEDED) {
          return null;
        }
        last = Math.max(last, c.slot().index);
      }
    }
    return last < 0 ? null : startsAtOnce(nextWrite(run.slots, last));
  }

  /** The first write of the turn after the call at {@code index}: the next one its write queue runs. */
  private static CallSlot nextWrite(List<CallSlot> slots, int index) {
    for (CallSlot slot : slots) {
      if (slot.index > index && slot.isWrite()) {
        return slot;
      }
    }
    return null;
  }

  /** The slot itself when it would be sent as soon as its turn in the queue comes, else null. */
  private static CallSlot startsAtOnce(CallSlot slot) {
    return slot != null && slot.problem == null && !slot.prior.isDone() && !slot.prior.wasStarted()
        && slot.prior.approval() == null && slot.askReason() == null && !Attempts.announcesSending(slot) ? slot : null;
  }
}
