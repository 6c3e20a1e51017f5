package dev.ratchet.runtime.impl;

import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Bounds a tool's or a model's answer in time, completing on the session's context: the engine and
 * the agent loop both wait through it, so an answer never lands on another thread.
 */
public final class Timeouts {

  private Timeouts() {
  }

  /**
   * The answer of {@code call}, or a {@link TimeoutException} saying that {@code what} did not answer
   * within {@code timeoutMillis}. A call that throws or answers no future fails the same way as one
   * whose future failed.
   */
  public static <T> Future<T> within(Vertx vertx, Context context, Supplier<Future<T>> call, long timeoutMillis,
                                     String what) {
    long millis = Math.max(1, timeoutMillis);
    Future<T> f;
    try {
      f = call.get();
      if (f == null) {
        f = Future.failedFuture(new IllegalStateException(what + " returned no future"));
      }
    } catch (RuntimeException e) {
      f = Future.failedFuture(e);
    }
    if (f.isComplete() && Vertx.currentContext() == context) {
      // answered before it returned (an in-process tool): nothing to wait for, so no timer; the
      // answer is handed on free of whatever context the call's future belongs to
      return f.succeeded() ? Future.succeededFuture(f.result()) : Future.failedFuture(f.cause());
    }
    Promise<T> promise = Promise.promise();
    long timer = vertx.setTimer(millis, t -> context.runOnContext(v -> promise.tryFail(
        new TimeoutException(what + " did not answer within " + millis + " ms"))));
    f.onComplete(ar -> {
      vertx.cancelTimer(timer);
      if (Vertx.currentContext() == context) {
        settle(promise, ar);
      } else {
        context.runOnContext(v -> settle(promise, ar));
      }
    });
    return promise.future();
  }

  private static <T> void settle(Promise<T> promise, AsyncResult<T> ar) {
    if (ar.succeeded()) {
      promise.tryComplete(ar.result());
    } else {
      promise.tryFail(ar.cause());
    }
  }
}
