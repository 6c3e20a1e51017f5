package dev.ratchet.runtime.impl;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

import java.util.function.Supplier;

/** Runs work on the one context that owns a session's state, from whatever thread asks. */
public final class Contexts {

  private Contexts() {
  }

  public static <T> Future<T> onContext(Context context, Supplier<Future<T>> action) {
    if (Vertx.currentContext() == context) {
      try {
        return action.get();
      } catch (RuntimeException e) {
        return Future.failedFuture(e);
      }
    }
    Promise<T> promise = Promise.promise();
    context.runOnContext(v -> {
      try {
        action.get().onComplete(promise);
      } catch (RuntimeException e) {
        promise.fail(e);
      }
    });
    return promise.future();
  }
}
