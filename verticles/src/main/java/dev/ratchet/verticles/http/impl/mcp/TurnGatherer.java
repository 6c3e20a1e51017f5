package dev.ratchet.verticles.http.impl.mcp;

import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Gathers the calls of one model response, which an MCP client sends as separate tools/call
 * requests, into one turn: once every index of {@code count} has arrived the turn is submitted
 * whole (so its writes keep the model's order and a failed write skips the later ones, rules 3
 * and 5), and each request is answered with its own call's record. A turn whose calls do not all
 * arrive within the wait, or whose calls disagree on the count or on what an index holds, fails
 * every request waiting for it with {@code TURN_INCOMPLETE}; nothing of it is journaled. The turn
 * runs in the trace of its lowest-index call that carries a valid {@code traceparent}, so that the
 * choice does not depend on the order in which the requests arrive (docs/OBSERVABILITY.md).
 */
final class TurnGatherer {

  /** The longest a call waits for the other calls of its turn. */
  static final long WAIT_MILLIS = 10_000;

  private final Vertx vertx;
  private final long waitMillis;
  private final Map<String, Gathering> open = new HashMap<>();

  TurnGatherer(Vertx vertx, long waitMillis) {
    this.vertx = vertx;
    this.waitMillis = waitMillis;
  }

  /**
   * Adds call {@code index} of {@code count} to turn {@code turnId} under {@code key} (which names
   * the caller, agent and session), and completes with that call's record once the gathered turn
   * has run through {@code submit}; {@code traceparent} is the one the call's request carried, or null.
   */
  synchronized Future<CallResult> join(String key, String turnId, int index, int count, ToolCall call,
                                       String traceparent, Function<Turn, Future<TurnResult>> submit) {
    Gathering g = open.get(key);
    if (g == null) {
      g = new Gathering(key, turnId, count);
      open.put(key, g);
      Gathering started = g;
      g.timer = vertx.setTimer(waitMillis, t -> expire(started));
    }
    if (g.count != count) {
      fail(g, "turn '" + turnId + "': call " + index + " says the model response has " + count
          + " calls, an earlier call of it said " + g.count + "; send the same dev.ratchet/count with every call");
      return Future.failedFuture(incomplete("turn '" + turnId + "': calls disagree on dev.ratchet/count ("
          + g.count + " and " + count + "); nothing of it ran"));
    }
    if (g.calls[index] != null && !same(g.calls[index], call)) {
      return Future.failedFuture(incomplete("turn '" + turnId + "' already has another call at index " + index
          + " (" + g.calls[index].name() + "); each call of a model response needs its own dev.ratchet/index"));
    }
    g.calls[index] = call;
    String valid = Turn.validTraceparent(traceparent);
    if (valid != null && index < g.tracedIndex) {
      g.tracedIndex = index;
      g.traceparent = valid;
    }
    Promise<CallResult> answer = Promise.promise();
    g.waiters.add(new Waiter(index, answer));
    if (Arrays.stream(g.calls).allMatch(c -> c != null)) {
      open.remove(key);
      vertx.cancelTimer(g.timer);
      Gathering complete = g;
      Future<TurnResult> ran;
      try {
        ran = submit.apply(new Turn(turnId, List.of(g.calls), g.traceparent));
      } catch (RuntimeException e) {
        ran = Future.failedFuture(e);
      }
      ran.onComplete(ar -> {
        for (Waiter w : complete.waiters) {
          if (ar.failed()) {
            w.answer.tryFail(ar.cause());
          } else {
            w.answer.tryComplete(ar.result().call(w.index));
          }
        }
      });
    }
    return answer.future();
  }

  private synchronized void expire(Gathering g) {
    if (open.get(g.key) != g) {
      return;
    }
    List<Integer> missing = new ArrayList<>();
    for (int i = 0; i < g.count; i++) {
      if (g.calls[i] == null) {
        missing.add(i);
      }
    }
    fail(g, "turn '" + g.turnId + "': only " + (g.count - missing.size()) + " of its " + g.count
        + " calls arrived within " + waitMillis / 1000 + " s (missing index " + missing + "); nothing of it ran,"
        + " so it is safe to send the whole turn again");
  }

  private void fail(Gathering g, String message) {
    open.remove(g.key, g);
    vertx.cancelTimer(g.timer);
    for (Waiter w : g.waiters) {
      w.answer.tryFail(incomplete(message));
    }
  }

  private static RatchetException incomplete(String message) {
    return new RatchetException(ErrorCode.TURN_INCOMPLETE, message);
  }

  private static boolean same(ToolCall a, ToolCall b) {
    return a.name().equals(b.name()) && a.arguments().equals(b.arguments());
  }

  private static final class Gathering {
    final String key;
    final String turnId;
    final int count;
    final ToolCall[] calls;
    final List<Waiter> waiters = new ArrayList<>();
    long timer;
    int tracedIndex = Integer.MAX_VALUE;
    String traceparent;

    Gathering(String key, String turnId, int count) {
      this.key = key;
      this.turnId = turnId;
      this.count = count;
      this.calls = new ToolCall[count];
    }
  }

  private record Waiter(int index, Promise<CallResult> answer) {
  }
}
