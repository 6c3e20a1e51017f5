package dev.ratchet.connectors.testing;

import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.IdempotencyKey;
import dev.ratchet.runtime.ToolInvocation;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** Builds invocations the way the engine does (stable call id and idempotency key per call) and waits for futures. */
public final class Invocations {

  private Invocations() {
  }

  public static ToolInvocation invocation(String turnId, int index, JsonObject arguments) {
    return attempt(turnId, index, 1, arguments);
  }

  public static ToolInvocation attempt(String turnId, int index, int attempt, JsonObject arguments) {
    CallId callId = CallId.of("session-1", turnId, index);
    return new ToolInvocation("session-1", callId, IdempotencyKey.of(callId, arguments), attempt, arguments,
        System.currentTimeMillis() + 20_000);
  }

  public static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError("expected success but failed: " + e.getCause(), e.getCause());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** The cause a future failed with; fails the test when it succeeds. */
  public static Throwable failure(Future<?> future) {
    try {
      Object value = future.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
      throw new AssertionError("expected a failure but got " + value);
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (InterruptedException | java.util.concurrent.TimeoutException e) {
      throw new AssertionError(e);
    }
  }
}
