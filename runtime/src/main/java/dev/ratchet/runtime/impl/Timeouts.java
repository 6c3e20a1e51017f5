package dev.ratchet.runtime.impl;

import dev.ratchet.runtime.RatchetClock;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Bounds a tool's or a model's answer in time, completing on the session's context: the engine and
 * the agent loop both wait through it, so an answer never lands on another thread. The time is the
 * session's clock's ({@link RatchetClock}).
 */
public final class Timeouts {

  private Timeouts() {
  }

  /**
   * The answer of {@code call}, or a {@link TimeoutException} saying that {@code what} did not answer
   * within {@code timeoutMillis}. A call that throws or answers no future fails the same way as one
   * whose future failed.
   */
  public static <T> Future<T> within(RatchetClock clock, Context context, Supplier<Future<T>> call,
                                     long timeoutMillis, String what) {
    return within(clock, context, restart -> call.get(), timeoutMillis, what);
  }

  /**
   * Like {@link #within(RatchetClock, Context, Supplier, long, String)}, but {@code call} is handed a
   * restart: running it gives the call its whole time again from that moment. A write that
   * announces its sending restarts the clock once it has its connection, so that time spent
   * waiting for the connection is never taken from the request (docs/ARCHITECTURE.md, J2).
   */
  public static <T> Future<T> within(RatchetClock clock, Context context, Function<Runnable, Future<T>> call,
                                     long timeoutMillis, String what) {
    long millis = Math.max(1, timeoutMillis);
    Promise<T> promise = Promise.promise();
    AtomicLong timer = new AtomicLong(-1);
    Runnable arm = () -> {
      long previous = timer.getAndSet(clock.setTimer(millis, t -> context.runOnContext(v -> promise.tryFail(
          new TimeoutException(what + " did not answer within " + millis + " ms")))));
      if (previous >= 0) {
        clock.cancelTimer(previous);
      }
    };
    Runnable restart = () -> {
      if (!promise.future().isComplete()) {
        arm.run();
      }
    };
    Future<T> f = start(() -> call.apply(restart), what);
    if (f.isComplete() && Vertx.currentContext() == context) {
      // answered before it returned (an in-process tool): nothing to wait for, so no timer; the
      // answer is handed on free of whatever context the call's future belongs to
      return f.succeeded() ? Future.succeededFuture(f.result()) : Future.failedFuture(f.cause());
    }
    arm.run();
    f.onComplete(ar -> {
      clock.cancelTimer(timer.get());
      if (Vertx.currentContext() == context) {
        settle(promise, ar);
      } else {
        context.runOnContext(v -> settle(promise, ar));
      }
    });
    return promise.future();
  }

  /** The call's future; a call that throws or answers none fails the same way as one whose future failed. */
  private static <T> Future<T> start(Supplier<Future<T>> call, String what) {
    try {
      Future<T> f = call.get();
      return f != null ? f : Future.failedFuture(new IllegalStateException(what + " returned no future"));
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }

  private static <T> void settle(Promise<T> promise, AsyncResult<T> ar) {
    if (ar.succeeded()) {
      promise.tryComplete(ar.result());
    } else {
      promise.tryFail(ar.cause());
    }
  }
}
