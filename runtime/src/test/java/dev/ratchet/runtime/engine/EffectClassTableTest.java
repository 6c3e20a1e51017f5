package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.MovableClock;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RetryPolicy;
import dev.ratchet.runtime.StepKind;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.ToolPolicy;
import dev.ratchet.runtime.ToolResult;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.testing.Recorder;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/** The effect-class table of docs/ARCHITECTURE.md through the real session engine, on the in-memory journal. */
class EffectClassTableTest {

  private static final RetryPolicy FAST = new RetryPolicy(3, Duration.ofMillis(5), Duration.ofMillis(20), 2.0);

  @RegisterExtension
  final EngineHarness h = new EngineHarness();

  private final Recorder provider = new Recorder();

  private static ToolCall call(String tool, String orderId) {
    return new ToolCall(tool, new JsonObject().put("orderId", orderId));
  }

  private CallResult runOne(FunctionToolSource.Builder tool) {
    SessionEngine engine = h.engine(FunctionToolSource.create("t").tool(tool), EngineOptions.DEFAULT);
    return await(engine.submit(Turn.of("t1", call("tool", "1")))).call(0);
  }

  /** A handler that never answers: the attempt can only end by the tool's timeout. */
  private FunctionToolSource.Builder hanging(EffectClass ec) {
    return FunctionToolSource.define("tool", ec).retry(FAST).timeout(Duration.ofMillis(100)).handler(inv -> {
      provider.record("tool", inv);
      return Promise.promise().future();
    });
  }

  @Test
  void aReadThatThrowsTwiceThenSucceedsIsSucceededAfterThreeAttempts() {
    AtomicInteger calls = new AtomicInteger();
    CallResult r = runOne(FunctionToolSource.define("tool", EffectClass.READ).retry(FAST).handler(inv -> {
      provider.record("tool", inv);
      if (calls.incrementAndGet() <= 2) {
        throw new IllegalStateException("flaky backend");
      }
      return Future.succeededFuture("found");
    }));
    assertThat(r.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(r.attempts()).isEqualTo(3);
    assertThat(r.result()).isEqualTo("found");
    assertThat(provider.count("tool")).isEqualTo(3);
    assertThat(provider.invocations).extracting(i -> i.attempt()).containsExactly(1, 2, 3);
  }

  @Test
  void aReadThatAlwaysThrowsEndsFailedAfterThreeAttempts() {
    CallResult r = runOne(FunctionToolSource.define("tool", EffectClass.READ).retry(FAST).handler(inv -> {
      provider.record("tool", inv);
      return Future.failedFuture(new IllegalStateException("backend down"));
    }));
    assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(r.attempts()).isEqualTo(3);
    assertThat(r.error()).contains("failed after 3 attempts").contains("backend down");
    assertThat(provider.count("tool")).isEqualTo(3);
  }

  @Test
  void anIdempotentWriteThatTimesOutIsRetriedWithTheSameKeyThenOutcomeUnknown() {
    CallResult r = runOne(hanging(EffectClass.IDEMPOTENT_WRITE));
    assertThat(r.outcome()).isEqualTo(Outcome.OUTCOME_UNKNOWN);
    assertThat(r.attempts()).isEqualTo(3);
    assertThat(r.error()).doesNotStartWith(CallResult.NOT_RUN_PREFIX).contains("did not answer within 100 ms");
    assertThat(provider.byKey).hasSize(1);
    assertThat(provider.byKey.values().iterator().next().get()).isEqualTo(3);
  }

  @Test
  void anIdempotentWriteThatWasOnlyEverAskedToRetryLaterIsFailedAndSafeToCallAgain() {
    CallResult r = runOne(FunctionToolSource.define("tool", EffectClass.IDEMPOTENT_WRITE).retry(FAST).invoke(inv -> {
      provider.record("tool", inv);
      return Future.succeededFuture(ToolResult.retryable("rate limited", 0));
    }));
    assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(r.attempts()).isEqualTo(3);
    assertThat(r.error()).startsWith(CallResult.NOT_RUN_PREFIX).contains("rate limited");
    assertThat(provider.byKey).hasSize(1);
  }

  @Test
  void aNonIdempotentWriteThatTimesOutIsAttemptedExactlyOnceAndIsOutcomeUnknown() {
    try (EngineHarness moved = new EngineHarness(Instant.parse("2026-03-02T09:00:00Z"))) {
      MovableClock clock = moved.movable();
      SessionEngine engine = moved.engine(FunctionToolSource.create("t")
          .tool(hanging(EffectClass.NON_IDEMPOTENT_WRITE)), EngineOptions.DEFAULT);
      Future<TurnResult> turn = engine.submit(Turn.of("t1", call("tool", "1")));
      await(clock.whenPending(1));
      await(clock.advance(Duration.ofMillis(100)));
      CallResult r = await(turn).call(0);
      assertThat(r.outcome()).isEqualTo(Outcome.OUTCOME_UNKNOWN);
      assertThat(r.attempts()).isEqualTo(1);
      assertThat(r.error()).doesNotStartWith(CallResult.NOT_RUN_PREFIX);
      // no timer is left that could send it again, even an hour on
      assertThat(clock.pendingTimers()).isZero();
      await(clock.advance(Duration.ofHours(1)));
      assertThat(provider.count("tool")).isEqualTo(1);
    }
  }

  @Test
  void aNonIdempotentWriteAskedToRetryLaterIsFailedWithTheDidNotRunPrefixAndNotRetried() {
    CallResult r = runOne(FunctionToolSource.define("tool", EffectClass.NON_IDEMPOTENT_WRITE).retry(FAST)
        .invoke(inv -> {
          provider.record("tool", inv);
          return Future.succeededFuture(ToolResult.retryable("try again in a minute", 60_000));
        }));
    assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(r.attempts()).isEqualTo(1);
    assertThat(r.error()).isEqualTo(CallResult.NOT_RUN_PREFIX + ": try again in a minute");
    assertThat(provider.count("tool")).isEqualTo(1);
  }

  @Test
  void aToolPolicyChangesApprovalButNeverTheEffectClass() {
    FunctionToolSource source = FunctionToolSource.create("t")
        .tool(FunctionToolSource.define("x", EffectClass.IDEMPOTENT_WRITE).approval(ApprovalRule.never())
            .handler(inv -> {
              provider.record("x", inv);
              return Future.succeededFuture("done");
            }))
        .tool(FunctionToolSource.define("y", EffectClass.NON_IDEMPOTENT_WRITE).approval(ApprovalRule.always())
            .handler(inv -> {
              provider.record("y", inv);
              return Future.succeededFuture("done");
            }));
    AgentDefinition agent = AgentDefinition.builder("test-agent").toolSource(source)
        .policy(ToolPolicy.requireApproval("x", true))
        .policy(ToolPolicy.requireApproval("y", false))
        .build();
    ToolCatalog catalog = await(ToolCatalog.resolve(h.vertx, agent));
    assertThat(catalog.get("x").tool().effectClass()).isEqualTo(EffectClass.IDEMPOTENT_WRITE);
    assertThat(catalog.get("x").toJson().getString("effectClass")).isEqualTo("idempotent_write");
    assertThat(catalog.get("x").toJson().getString("step")).isEqualTo(StepKind.CALL_TOOL.wireName());
    assertThat(catalog.get("x").approval().isNever()).isFalse();
    assertThat(catalog.get("y").tool().effectClass()).isEqualTo(EffectClass.NON_IDEMPOTENT_WRITE);
    assertThat(catalog.get("y").toJson().getString("step")).isEqualTo(StepKind.CALL_SINGLE_ATTEMPT_TOOL.wireName());
    assertThat(catalog.get("y").approval().isNever()).isTrue();

    SessionEngine engine = h.engine(agent, EngineOptions.DEFAULT);
    Future<TurnResult> pending = engine.submit(new Turn("t1", List.of(call("x", "1"), call("y", "1"))));
    List<ApprovalRequest> requests = h.pendingFor(1);
    assertThat(requests).hasSize(1);
    ApprovalRequest request = requests.get(0);
    assertThat(request.tool()).isEqualTo("x");
    assertThat(request.effectClass()).isEqualTo(EffectClass.IDEMPOTENT_WRITE);
    assertThat(request.askedBecause()).contains("policy");
    assertThat(provider.order).isEmpty();

    await(engine.decide(ApprovalDecision.approve(request, "alice", null)));
    TurnResult result = await(pending);
    assertThat(result.call(0).effectClass()).isEqualTo(EffectClass.IDEMPOTENT_WRITE);
    assertThat(result.call(0).approval().approver()).isEqualTo("alice");
    assertThat(result.call(1).effectClass()).isEqualTo(EffectClass.NON_IDEMPOTENT_WRITE);
    assertThat(result.call(1).approval()).isNull();
    assertThat(result.call(1).outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(provider.order).containsExactly("x", "y");
  }
}
