package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.ApprovalRecord;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.MovableClock;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RetryPolicy;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.ToolInvocation;
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

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine waits on its clock: approval time-outs, retry back-offs and call time-outs fall due
 * when a test moves the clock past them, at once and not one millisecond before, with no real time
 * spent. Real engine, real in-memory journal.
 */
class EngineClockTest {

  private static final Instant START = Instant.parse("2026-03-02T09:00:00Z");
  private static final JsonObject ORDER = new JsonObject().put("orderId", "1001");

  @RegisterExtension
  final EngineHarness h = new EngineHarness(START);

  private final MovableClock clock = h.movable();
  private final Recorder provider = new Recorder();

  @Test
  void anApprovalExpiresWhenTheClockReachesItsDeadlineAndNotAMillisecondBefore() {
    long timeout = Duration.ofHours(4).toMillis();
    FunctionToolSource tools = FunctionToolSource.create("t").tool(FunctionToolSource
        .define("refund", EffectClass.NON_IDEMPOTENT_WRITE).approval(ApprovalRule.always()).handler(inv -> {
          provider.record("refund", inv);
          return Future.succeededFuture(new JsonObject());
        }));
    SessionEngine engine = h.engine(tools, EngineOptions.DEFAULT.withApprovalTimeoutMillis(timeout));
    Future<TurnResult> turn = engine.submit(Turn.of("turn-1", new ToolCall("refund", ORDER)));
    await(clock.whenPending(1));
    ApprovalRequest request = h.pendingFor(1).get(0);
    assertThat(request.expiresAt()).isEqualTo(START.toEpochMilli() + timeout);

    await(clock.advance(Duration.ofMillis(timeout - 1)));
    assertThat(clock.pendingTimers()).isEqualTo(1);
    assertThat(approval(request.callId()).status()).isEqualTo("pending");
    assertThat(turn.isComplete()).isFalse();

    await(clock.advance(Duration.ofMillis(1)));
    CallResult call = await(turn).calls().get(0);
    assertThat(call.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(call.error()).contains("approval expired");
    ApprovalRecord expired = approval(request.callId());
    assertThat(expired.status()).isEqualTo("expired");
    assertThat(expired.decidedAt()).isEqualTo(START.toEpochMilli() + timeout);
    assertThat(provider.count("refund")).isZero();
  }

  @Test
  void aReadIsRetriedOnlyOnceItsBackOffHasPassedOnTheClock() {
    long retryAfter = Duration.ofMinutes(10).toMillis();
    FunctionToolSource tools = FunctionToolSource.create("t").tool(FunctionToolSource.define("look", EffectClass.READ)
        .retry(new RetryPolicy(2, Duration.ofSeconds(1), Duration.ofSeconds(1), 1.0)).invoke(inv -> {
          provider.record("look", inv);
          return Future.succeededFuture(inv.attempt() == 1 ? ToolResult.retryable("busy", retryAfter)
              : ToolResult.success(new JsonObject().put("found", true)));
        }));
    SessionEngine engine = h.engine(tools, EngineOptions.DEFAULT);
    Future<TurnResult> turn = engine.submit(Turn.of("turn-1", new ToolCall("look", ORDER)));
    await(clock.whenPending(1));
    assertThat(provider.count("look")).isEqualTo(1);
    assertThat(h.events.stream().filter(e -> EventType.CALL_ATTEMPT_FAILED.wireName().equals(e.getString("type")))
        .findFirst().orElseThrow().getJsonObject("data").getLong("retryInMs")).isEqualTo(retryAfter);

    await(clock.advance(Duration.ofMillis(retryAfter - 1)));
    assertThat(provider.count("look")).isEqualTo(1);
    assertThat(turn.isComplete()).isFalse();

    await(clock.advance(Duration.ofMillis(1)));
    assertThat(provider.count("look")).isEqualTo(2);
    CallResult call = await(turn).calls().get(0);
    assertThat(call.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(call.attempts()).isEqualTo(2);
  }

  @Test
  void aToolThatDoesNotAnswerTimesOutWhenTheClockPassesItsTimeout() {
    Duration timeout = Duration.ofSeconds(30);
    Promise<Object> never = Promise.promise();
    FunctionToolSource tools = FunctionToolSource.create("t").tool(FunctionToolSource.define("look", EffectClass.READ)
        .timeout(timeout).retry(RetryPolicy.NONE).handler(inv -> {
          provider.record("look", inv);
          return never.future();
        }));
    SessionEngine engine = h.engine(tools, EngineOptions.DEFAULT);
    Future<TurnResult> turn = engine.submit(Turn.of("turn-1", new ToolCall("look", ORDER)));
    await(clock.whenPending(1));
    ToolInvocation inv = provider.invocations.get(0);
    assertThat(inv.deadline()).isEqualTo(START.toEpochMilli() + timeout.toMillis());

    await(clock.advance(timeout.minusSeconds(10)));
    assertThat(inv.remainingMillis()).isEqualTo(10_000);
    await(clock.advance(Duration.ofMillis(10_000 - 1)));
    assertThat(clock.pendingTimers()).isEqualTo(1);
    assertThat(turn.isComplete()).isFalse();

    await(clock.advance(Duration.ofMillis(1)));
    CallResult call = await(turn).calls().get(0);
    assertThat(call.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(call.error()).contains("did not answer within 30000 ms");
    assertThat(call.durationMillis()).isEqualTo(timeout.toMillis());
  }

  private ApprovalRecord approval(CallId callId) {
    return await(h.journal.callState(h.sessionId, callId)).approval();
  }
}
