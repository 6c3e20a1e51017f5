package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.CallStatus;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.journal.MemorySession.CallEntry;
import dev.ratchet.runtime.journal.MemorySession.TurnEntry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import static dev.ratchet.runtime.journal.MemoryStore.ownSession;

/**
 * The in-memory journal's steps of turns and calls (rule 1 and J1, J2, J7, J8), each whole under
 * the store's lock.
 */
record MemoryTurnSteps(MemoryStore store, Vertx vertx) implements TurnSteps {

  @Override
  public Future<SubmitAnswer> submitTurn(TurnSubmission submission) {
    String sessionId = submission.sessionId();
    Turn turn = submission.turn();
    CallStart firstWrite = submission.firstWrite();
    TurnSpec spec = TurnSpec.of(turn, submission.catalogue(), submission.replyAddress());
    return store.step(vertx, () -> {
      long now = store.now();
      MemorySession s = store.entered(sessionId, submission.epoch(), submission.callerId(), submission.index(), now);
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
      ownSession(s, submission.agent(), submission.callerId(), submission.creator(), now);
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
    return store.step(vertx, () -> {
      MemorySession s = store.fenced(sessionId, epoch);
      TurnEntry t = s.turns.computeIfAbsent(result.turnId(), id -> new TurnEntry());
      if ("completed".equals(t.status)) {
        return MemoryReads.results(sessionId, s, result.turnId());
      }
      long now = store.now();
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
  public Future<CallResult> callStarted(String sessionId, long epoch, String turnId, CallStart start) {
    String encoded = start.data().encode();
    String callId = start.callId().value();
    return store.step(vertx, () -> {
      MemorySession s = store.fenced(sessionId, epoch);
      CallEntry c = s.calls.get(callId);
      if (c != null && c.record != null) {
        return CallResult.fromJson(new JsonObject(c.record));
      }
      started(s, turnId, callId, start.attempt(), store.now(), encoded);
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
    return store.step(vertx, () -> {
      MemorySession s = store.fenced(sessionId, epoch);
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
      long now = store.now();
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
    return store.step(vertx, () -> {
      store.fenced(sessionId, epoch).append(type, turnId, callId, store.now(), encoded);
      return null;
    });
  }
}
