package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RetryPolicy;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolNotSentException;
import dev.ratchet.runtime.Turn;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.function.Function;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/** A call none of whose attempts ran says so once, at the front of its error, however many attempts it had. */
class NotRunErrorTest {

  @RegisterExtension
  final EngineHarness h = new EngineHarness();

  @Test
  void aReadWhoseEveryAttemptWasNotSentSaysDidNotRunOnce() {
    CallResult r = look(inv -> Future.failedFuture(new ToolNotSentException(CallResult.NOT_RUN_PREFIX
        + ": the server 'docs' is not connected")));
    assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(r.attempts()).isEqualTo(3);
    assertThat(r.error()).isEqualTo(CallResult.NOT_RUN_PREFIX + ": failed after 3 attempts: the server 'docs' is not connected");
  }

  @Test
  void aReadWhoseCredentialsWereRefusedIsNotTriedAgain() {
    java.util.concurrent.atomic.AtomicInteger tries = new java.util.concurrent.atomic.AtomicInteger();
    CallResult r = look(inv -> {
      tries.incrementAndGet();
      return Future.failedFuture(ToolNotSentException.notRetryable(CallResult.NOT_RUN_PREFIX
          + ": the server 'docs' refused the credentials (HTTP 401)"));
    });
    assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(tries.get()).isEqualTo(1);
    assertThat(r.error()).isEqualTo(CallResult.NOT_RUN_PREFIX + ": the server 'docs' refused the credentials (HTTP 401)");
  }

  @Test
  void aReadIsTriedAgainOnlyOnceItsSourceSaysItCouldRun() {
    java.util.List<Long> at = new java.util.concurrent.CopyOnWriteArrayList<>();
    CallResult r = look(inv -> {
      at.add(System.nanoTime());
      return at.size() < 3 ? Future.failedFuture(new ToolNotSentException(CallResult.NOT_RUN_PREFIX
          + ": the server 'docs' is reconnecting", 300)) : Future.succeededFuture("found");
    });
    assertThat(r.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(at).hasSize(3);
    assertThat((at.get(1) - at.get(0)) / 1_000_000).as("ms before the second attempt").isGreaterThanOrEqualTo(300);
    assertThat((at.get(2) - at.get(1)) / 1_000_000).as("ms before the third attempt").isGreaterThanOrEqualTo(300);
  }

  /** The outcome of one call of {@code look}, a read of three attempts whose every attempt {@code handler} answers. */
  private CallResult look(Function<ToolInvocation, Future<Object>> handler) {
    SessionEngine engine = h.engine(FunctionToolSource.create("t").tool(FunctionToolSource.define("look", EffectClass.READ)
        .retry(new RetryPolicy(3, Duration.ofMillis(5), Duration.ofMillis(20), 2.0)).handler(handler)),
        EngineOptions.DEFAULT);
    return await(engine.submit(Turn.of("t1", new ToolCall("look", new JsonObject())))).call(0);
  }
}
