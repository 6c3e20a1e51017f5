package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.CallEvent;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.impl.CanonicalJson;
import dev.ratchet.runtime.impl.LogIds;
import dev.ratchet.runtime.journal.CallStart;
import dev.ratchet.runtime.journal.CallState;
import dev.ratchet.runtime.journal.InflightTurn;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Taking a turn in (rules 1 and 2): every call resolved and validated before anything runs, the
 * turn journaled once, a turn id already journaled answered with its run or its results.
 */
final class Submission {

  private static final Logger LOG = LoggerFactory.getLogger(Submission.class);

  private static final long INDEX_REFRESH_MILLIS = 10_000;

  private final SessionEngine engine;
  /** Submissions journaling now; while any is, the write queue may not stay free for a new turn's first write. */
  private int submitting;
  /** Turns whose submission (carrying their first write's start) failed without an answer: turn id to call id. */
  private final Map<String, String> startsNeverSent = new HashMap<>();
  /** When this owner last wrote the session into the recovery and recent indexes. */
  private long indexedAt = -1;

  Submission(SessionEngine engine) {
    this.engine = engine;
  }

  boolean submitting() {
    return submitting > 0;
  }

  /**
   * Journals a new turn (or finds the one journaled under its id) and answers the future of its
   * results; with {@code run} false, a turn not running here is journaled only and left for the
   * session's next owner, and its future never completes here. {@code replyAddress} (null: none) is
   * journaled with a new turn and answered when the turn ends here (docs/EVENT-BUS.md).
   */
  Future<Future<TurnResult>> accept(Turn turn, String callerId, String creator, String replyAddress, boolean run) {
    TurnRun running = engine.running.get(turn.turnId());
    if (running != null && callerId != null && !callerId.equals(engine.callerId())) {
      // a running turn proves the session exists, and its caller is known here
      return Future.failedFuture(new RatchetException(ErrorCode.CALLER_MISMATCH, "session " + engine.sessionId
          + (engine.callerId() == null ? " was created without a caller; its caller cannot be set later"
          : " belongs to another caller")));
    }
    if (running != null) {
      if (!sameCalls(running.turn, turn)) {
        return Future.failedFuture(turnIdReused(turn));
      }
      engine.answerWhenDone(turn.turnId(), replyAddress);
      return Future.succeededFuture(running.result.future());
    }
    StepWriter writer = engine.writer;
    if (writer.closed()) {
      return Future.failedFuture(writer.notOwner());
    }
    ToolCatalog catalog = engine.catalogs.current();
    List<CallSlot> slots = slots(turn, catalog, Map.of());
    CallSlot first = run ? engine.queue.firstWriteToStartAtOnce(slots) : null;
    long now = engine.clock.millis();
    // the session stays in the recovery index until it is passivated, so only the recent-sessions
    // order needs refreshing; doing it at most every ten seconds spares two commands per turn when
    // thousands of sessions each take seconds per turn
    boolean index = indexedAt < 0 || now - indexedAt >= INDEX_REFRESH_MILLIS;
    CallStart start = first == null ? null : new CallStart(first.callId, 1, first.startData(1));
    submitting++;
    return writer.submitTurn(engine.catalogs.agent(), callerId, creator, turn, catalog.version(), replyAddress, index,
        start).onComplete(ar -> {
      submitting--;
      if (ar.succeeded() && index) {
        indexedAt = now;
      }
      if (ar.failed() && start != null && !StepWriter.isFencing(ar.cause())) {
        // the answer was lost, so the step may have landed: the write it started was never sent
        startsNeverSent.put(turn.turnId(), start.callId().value());
      }
    }).<Future<TurnResult>>compose(answer -> {
      engine.callerAccepted(callerId);
      switch (answer.status()) {
        case COMPLETED:
          engine.answerCompleted(turn.turnId(), replyAddress, answer.results());
          return Future.succeededFuture(Future.succeededFuture(answer.results()));
        case CONFLICT:
          return Future.failedFuture(turnIdReused(turn));
        case EXPIRED:
          return Future.failedFuture(new RatchetException(ErrorCode.TURN_EXPIRED, "turn '" + turn.turnId()
              + "' was removed by retention and its tombstone window has passed; it is never run again: use a new turn id"));
        case RUNNING: {
          TurnRun again = engine.running.get(turn.turnId());
          if (again != null) {
            engine.answerWhenDone(turn.turnId(), replyAddress);
            return Future.succeededFuture(again.result.future());
          }
          if (!run) {
            return Future.succeededFuture(Promise.<TurnResult>promise().future());
          }
          return writer.journal().inflightTurns(engine.sessionId).map(list -> {
            TurnRun meanwhile = engine.running.get(turn.turnId());
            if (meanwhile != null) {
              engine.answerWhenDone(turn.turnId(), replyAddress);
              return meanwhile.result.future();
            }
            for (InflightTurn t : list) {
              if (t.turn().turnId().equals(turn.turnId())) {
                Future<TurnResult> resumed = resume(t, withoutStartsNeverSent(t));
                engine.answerWhenDone(turn.turnId(), t.replyAddress());
                engine.answerWhenDone(turn.turnId(), replyAddress);
                return resumed;
              }
            }
            return writer.journal().turnResult(engine.sessionId, turn.turnId());
          });
        }
        default:
          startsNeverSent.remove(turn.turnId());
          slots.forEach(s -> s.move(CallEvent.SUBMITTED));
          writer.emit(EventType.TURN_SUBMITTED.wireName(), turn.turnId(), null,
              () -> turn.toJson().put(Turn.CATALOGUE, catalog.version()));
          if (!run) {
            engine.held++;
            return Future.succeededFuture(Promise.<TurnResult>promise().future());
          }
          if (answer.writeStarted()) {
            first.startJournaled = start.data();
            first.move(CallEvent.ATTEMPT_STARTED);
          }
          Future<TurnResult> results = engine.runner.execute(turn, slots, false, turn.traceparent());
          engine.answerWhenDone(turn.turnId(), replyAddress);
          return Future.succeededFuture(results);
      }
    }).recover(writer::noteFencing);
  }

  /** Runs a turn the journal holds in flight, from its calls' journaled states. */
  Future<TurnResult> resume(InflightTurn t, Map<String, CallState> priors) {
    return engine.runner.execute(t.turn(), slots(t.turn(), catalogOf(t), priors), !priors.isEmpty(), t.turn().traceparent());
  }

  /**
   * The catalogue a resumed turn was validated against; after a restart that version may be
   * unknown, and the turn's calls without an outcome are validated again against the current one.
   */
  private ToolCatalog catalogOf(InflightTurn t) {
    ToolCatalog current = engine.catalogs.current();
    if (t.catalogue() == null || t.catalogue().equals(current.version())) {
      return current;
    }
    ToolCatalog then = engine.catalogs.version(t.catalogue());
    if (then == null) {
      LogIds.turn(engine.sessionId, t.turn().turnId()).warn(LOG, "the turn was validated against catalogue {} of"
          + " agent {}, which this process does not know; its calls without an outcome are resolved in catalogue {}",
          t.catalogue(), engine.catalogs.agent(), current.version());
      return current;
    }
    return then;
  }

  /**
   * A turn's journaled call states, except that a write this owner journaled as started along with
   * a submission whose answer it never got is known not to have been sent: this owner never ran
   * the turn, and no other owner can have, since the turn was new at that submission.
   */
  private Map<String, CallState> withoutStartsNeverSent(InflightTurn t) {
    String callId = startsNeverSent.remove(t.turn().turnId());
    CallState state = callId == null ? null : t.calls().get(callId);
    if (state == null || state.isDone()) {
      return t.calls();
    }
    Map<String, CallState> calls = new LinkedHashMap<>(t.calls());
    calls.put(callId, CallState.fresh(callId));
    return calls;
  }

  /** Resolves and validates every call before anything runs (rule 2). */
  private List<CallSlot> slots(Turn turn, ToolCatalog catalog, Map<String, CallState> priors) {
    List<CallSlot> slots = new ArrayList<>(turn.calls().size());
    for (int i = 0; i < turn.calls().size(); i++) {
      ToolCall call = turn.calls().get(i);
      CallId callId = turn.callId(engine.sessionId, i);
      ToolCatalog.Entry entry = catalog.get(call.name());
      String problem;
      if (entry == null) {
        problem = "unknown tool '" + call.name() + "'; this agent's tools are: "
            + String.join(", ", catalog.entries().stream().map(e -> e.tool().name()).toList());
      } else if (call.rawArguments() != null) {
        problem = call.argumentsProblem();
      } else {
        problem = entry.validator().problems(call.arguments());
      }
      CallState prior = priors.getOrDefault(callId.value(), CallState.fresh(callId.value()));
      slots.add(new CallSlot(i, call, callId, catalog, entry, problem, prior));
    }
    return slots;
  }

  private static boolean sameCalls(Turn a, Turn b) {
    return CanonicalJson.encode(a.toJson()).equals(CanonicalJson.encode(b.toJson()));
  }

  private static RatchetException turnIdReused(Turn turn) {
    return new RatchetException(ErrorCode.TURN_ID_REUSED, "turn '" + turn.turnId()
        + "' was already submitted with different calls; use a new turn id for a new model response");
  }
}
