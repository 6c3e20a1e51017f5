package dev.ratchet.runtime.testing;

import io.vertx.core.Future;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * Blocking helpers for test threads (never for event loops). Every wait is bounded, so a future
 * that never completes fails its test instead of hanging it; the stack trace names the waiting line.
 */
public final class Await {

  /** How long a test waits for a future unless it says otherwise. */
  public static final int TIMEOUT_SECONDS = 20;

  private Await() {
  }

  public static <T> T await(Future<T> future) {
    return await(future, TIMEOUT_SECONDS);
  }

  public static <T> T await(Future<T> future, int seconds) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(seconds, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException) {
        throw (RuntimeException) e.getCause();
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException | TimeoutException e) {
      throw new IllegalStateException("the future did not complete within " + seconds + " s", e);
    }
  }

  public static Throwable failure(Future<?> future) {
    try {
      future.toCompletionStage().toCompletableFuture().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (InterruptedException | TimeoutException e) {
      throw new IllegalStateException("the future did not fail within " + TIMEOUT_SECONDS + " s", e);
    }
    throw new AssertionError("expected the future to fail, it succeeded");
  }

  public static void until(BooleanSupplier condition, int seconds) {
    long deadline = System.currentTimeMillis() + seconds * 1000L;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("condition not met within " + seconds + " s");
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
