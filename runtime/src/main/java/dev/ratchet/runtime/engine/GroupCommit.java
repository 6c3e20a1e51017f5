package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.CallEvent;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.journal.CallStart;
import io.vertx.core.Context;

import java.util.ArrayList;
import java.util.List;

/**
 * The step writer's batching of outcomes: outcomes of a turn reached in the same event-loop turn
 * (typically its reads) share one {@code calls_completed} step, which also completes the turn when
 * they are its last (J7) and carries, as started, the write that would be sent right after it.
 */
final class GroupCommit {

  private final SessionEngine engine;
  private final Context context;

  GroupCommit(SessionEngine engine) {
    this.engine = engine;
    this.context = engine.context;
  }

  /** Takes an outcome; the commit runs once the current event-loop turn is over. */
  void add(TurnRun run, CallSlot slot, CallResult record) {
    run.unjournaled.add(new TurnRun.Completion(slot, record));
    if (!run.flushScheduled) {
      run.flushScheduled = true;
      context.runOnContext(v -> flush(run));
    }
  }

  /** Journals the outcomes gathered so far, and the turn's results if they are the last ones. */
  private void flush(TurnRun run) {
    run.flushScheduled = false;
    // the batch takes the list; outcomes reached from now on go to a new one
    List<TurnRun.Completion> batch = run.unjournaled;
    run.unjournaled = new ArrayList<>(4);
    List<CallResult> records = new ArrayList<>(batch.size());
    // a slot's index is its place in the turn
    CallResult[] inBatch = new CallResult[run.slots.size()];
    for (TurnRun.Completion c : batch) {
      records.add(c.record());
      inBatch[c.slot().index] = c.record();
    }
    TurnResult finished = null;
    List<CallResult> ordered = new ArrayList<>(run.slots.size());
    for (CallSlot slot : run.slots) {
      CallResult r = inBatch[slot.index];
      if (r == null && slot.done.future().succeeded()) {
        r = slot.done.future().result();
      }
      if (r == null) {
        ordered = null;
        break;
      }
      ordered.add(r);
    }
    if (ordered != null) {
      finished = new TurnResult(engine.sessionId, run.turn.turnId(), ordered);
    }
    TurnResult turnResult = finished;
    CallSlot next = finished == null ? engine.queue.nextWriteToStartAtOnce(run, batch) : null;
    CallStart start = next == null ? null : new CallStart(next.callId, 1, next.startData(1));
    StepWriter writer = engine.writer;
    writer.callsCompleted(run.turn.turnId(), records, turnResult, start, r -> resultText(run, r))
        .onComplete(ar -> {
          if (ar.failed()) {
            batch.forEach(c -> c.slot().done.tryFail(ar.cause()));
            return;
          }
          if (ar.result().turnCompleted()) {
            run.journaledResult = turnResult;
          }
          if (ar.result().nextWriteStarted()) {
            next.startJournaled = start.data();
            next.move(CallEvent.ATTEMPT_STARTED);
          }
          for (int i = 0; i < batch.size(); i++) {
            CallResult journaled = ar.result().records().get(i);
            if (journaled != batch.get(i).record()) {
              batch.get(i).slot().resultText = null;
            }
            CallSlot slot = batch.get(i).slot();
            if (writer.wants(EventType.CALL_COMPLETED.wireName())) {
              slot.eventRecord = journaled;
              slot.eventJson = journaled.toJson();
              writer.emit(EventType.CALL_COMPLETED.wireName(), run.turn.turnId(), journaled.callId().value(), slot.eventJson);
            }
            batch.get(i).slot().done.tryComplete(journaled);
          }
        });
  }

  /**
   * A record's result as the engine encoded it to measure it; null when the journal answered an
   * earlier record instead (flush then clears it) or the call had no result.
   */
  private static String resultText(TurnRun run, CallResult r) {
    return r.index() >= 0 && r.index() < run.slots.size() ? run.slots.get(r.index()).resultText : null;
  }
}
