package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.journal.JournalPorts;
import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.ToolNotSentException;
import dev.ratchet.runtime.ToolResult;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.journal.DecisionAnswer;
import dev.ratchet.runtime.testing.Recorder;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static dev.ratchet.runtime.testing.Await.await;
import static dev.ratchet.runtime.testing.Await.failure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rules 1-8 of docs/ARCHITECTURE.md, each against the in-memory journal: the engine's rules, over a
 * journal whose contract SessionJournalContract checks on Redis and in memory alike.
 */
class TurnRulesTest {

  private static final JsonObject ORDER_SCHEMA = new JsonObject("""
      {"type":"object","properties":{"orderId":{"type":"string"},"amount":{"type":"number"}},
       "required":["orderId"],"additionalProperties":false}""");

  @RegisterExtension
  final EngineHarness h = new EngineHarness();

  private final Recorder provider = new Recorder();

  private FunctionToolSource.Builder write(String name, EffectClass ec) {
    return FunctionToolSource.define(name, ec).schema(ORDER_SCHEMA).handler(inv -> {
      provider.record(name, inv);
      return Future.succeededFuture(new JsonObject().put("done", name).put("orderId", inv.arguments().getString("orderId")));
    });
  }

  private FunctionToolSource.Builder read(String name) {
    return write(name, EffectClass.READ);
  }

  private static ToolCall call(String tool, String orderId) {
    return new ToolCall(tool, new JsonObject().put("orderId", orderId));
  }

  @Test
  void submittingTheSameTurnTwiceRunsItOnceAndAnswersTheSameResults() {
    SessionEngine engine = h.engine(FunctionToolSource.create("t").tool(write("refund", EffectClass.NON_IDEMPOTENT_WRITE)),
        EngineOptions.DEFAULT);
    Turn turn = Turn.of("turn-1", call("refund", "1001"));
    TurnResult first = await(engine.submit(turn));
    TurnResult second = await(engine.submit(turn));
    assertThat(provider.count("refund")).isEqualTo(1);
    assertThat(second.toJson()).isEqualTo(first.toJson());
  }

  @Test
  void reusingATurnIdForDifferentCallsIsRefused() {
    SessionEngine engine = h.engine(FunctionToolSource.create("t").tool(read("look")), EngineOptions.DEFAULT);
    await(engine.submit(Turn.of("turn-1", call("look", "1"))));
    Throwable err = failure(engine.submit(Turn.of("turn-1", call("look", "2"))));
    assertThat(((RatchetException) err).code()).isEqualTo("TURN_ID_REUSED");
    assertThat(provider.count("look")).isEqualTo(1);
  }

  @Test
  void reusingTheIdOfATurnStillRunningForDifferentCallsIsRefused() {
    FunctionToolSource source = FunctionToolSource.create("t").tool(read("look"))
        .tool(write("refund", EffectClass.NON_IDEMPOTENT_WRITE).approval(ApprovalRule.always()));
    SessionEngine engine = h.engine(source, EngineOptions.DEFAULT);
    Future<TurnResult> running = engine.submit(Turn.of("turn-1", call("refund", "1")));
    ApprovalRequest request = h.pendingFor(1).get(0);
    Throwable err = failure(engine.submit(Turn.of("turn-1", call("look", "2"))));
    assertThat(((RatchetException) err).code()).isEqualTo("TURN_ID_REUSED");
    assertThat(provider.order).isEmpty();
    await(engine.decide(ApprovalDecision.approve(request, "alice", null)));
    assertThat(await(running).call(0).tool()).isEqualTo("refund");
  }

  @Test
  void unknownToolsAndInvalidArgumentsFailWithAMessageAModelCanActOnAndNothingIsSent() {
    SessionEngine engine = h.engine(FunctionToolSource.create("t").tool(write("refund", EffectClass.IDEMPOTENT_WRITE)),
        EngineOptions.DEFAULT);
    TurnResult result = await(engine.submit(new Turn("t1", List.of(
        new ToolCall("refnud", new JsonObject().put("orderId", "1")),
        new ToolCall("refund", new JsonObject().put("orderId", 42))))));
    CallResult unknown = result.call(0);
    assertThat(unknown.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(unknown.error()).startsWith(CallResult.NOT_RUN_PREFIX).contains("unknown tool 'refnud'").contains("refund");
    CallResult invalid = result.call(1);
    assertThat(invalid.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(invalid.error()).startsWith(CallResult.NOT_RUN_PREFIX).contains("orderId");
    assertThat(provider.order).isEmpty();
  }

  /** The write {@code write}: each call takes {@code millis}, and the provider counts how many run at once. */
  private FunctionToolSource.Builder slowWrite(long millis) {
    return FunctionToolSource.define("write", EffectClass.NON_IDEMPOTENT_WRITE).schema(ORDER_SCHEMA).handler(inv -> {
      provider.enter();
      provider.record("write:" + inv.arguments().getString("orderId"), inv);
      Promise<Object> p = Promise.promise();
      h.vertx.setTimer(millis, t -> {
        provider.leave();
        p.complete("ok");
      });
      return p.future();
    });
  }

  @Test
  void readsRunConcurrentlyWhileWritesRunOneAtATimeInTheModelsOrder() throws Exception {
    CountDownLatch bothReadsStarted = new CountDownLatch(2);
    FunctionToolSource source = FunctionToolSource.create("t");
    source.tool(FunctionToolSource.define("slow_read", EffectClass.READ).schema(ORDER_SCHEMA).handler(inv -> {
      bothReadsStarted.countDown();
      Promise<Object> p = Promise.promise();
      // each read only finishes once the other has started: sequential reads would time out
      new Thread(() -> {
        try {
          p.complete(bothReadsStarted.await(5, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
          p.fail(e);
        }
      }).start();
      return p.future();
    }));
    source.tool(slowWrite(30));
    SessionEngine engine = h.engine(source, EngineOptions.DEFAULT);
    TurnResult result = await(engine.submit(new Turn("t1", List.of(
        call("write", "a"), call("slow_read", "1"), call("write", "b"), call("slow_read", "2"), call("write", "c")))));
    assertThat(result.call(1).result()).isEqualTo(true);
    assertThat(result.call(3).result()).isEqualTo(true);
    assertThat(provider.order).containsExactly("write:a", "write:b", "write:c");
    assertThat(provider.maxConcurrent.get()).isEqualTo(1);
  }

  @Test
  void writesOfTwoTurnsOfASessionNeverOverlap() {
    FunctionToolSource source = FunctionToolSource.create("t").tool(slowWrite(20));
    SessionEngine engine = h.engine(source, EngineOptions.DEFAULT);
    Future<TurnResult> a = engine.submit(new Turn("a", List.of(call("write", "1"), call("write", "2"))));
    Future<TurnResult> b = engine.submit(new Turn("b", List.of(call("write", "3"), call("write", "4"))));
    await(a);
    await(b);
    assertThat(provider.maxConcurrent.get()).isEqualTo(1);
  }

  @Test
  void aWriteAsksForApprovalOnlyWhenItsTurnComesAndReadsCompleteMeanwhile() {
    FunctionToolSource source = FunctionToolSource.create("t")
        .tool(read("look"))
        .tool(write("refund", EffectClass.IDEMPOTENT_WRITE).approval(ApprovalRule.always()))
        .tool(write("note", EffectClass.NON_IDEMPOTENT_WRITE));
    SessionEngine engine = h.engine(source, EngineOptions.DEFAULT);
    Future<TurnResult> pending = engine.submit(new Turn("t1", List.of(
        call("refund", "1"), call("look", "1"), call("note", "1"))));
    List<ApprovalRequest> requests = h.pendingFor(1);
    assertThat(requests).hasSize(1);
    ApprovalRequest request = requests.get(0);
    assertThat(request.tool()).isEqualTo("refund");
    assertThat(request.arguments().getString("orderId")).isEqualTo("1");
    assertThat(provider.order).containsExactly("look");
    assertThat(pending.isComplete()).isFalse();

    assertThat(await(engine.decide(ApprovalDecision.approve(request, "alice", "checked")))).isEqualTo(DecisionAnswer.ACCEPTED);
    TurnResult result = await(pending);
    assertThat(provider.order).containsExactly("look", "refund", "note");
    assertThat(result.call(0).outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(result.call(0).approval().approver()).isEqualTo("alice");
    assertThat(result.call(0).approval().reason()).isEqualTo("checked");
    assertThat(result.call(0).approval().decidedAt()).isPositive();
    assertThat(h.pendingFor(0)).isEmpty();
  }

  @Test
  void aRejectedWriteNeverRunsAndLaterWritesOfItsTurnAreSkipped() {
    FunctionToolSource source = FunctionToolSource.create("t")
        .tool(write("cancel", EffectClass.NON_IDEMPOTENT_WRITE).approval(ApprovalRule.always()))
        .tool(write("note", EffectClass.NON_IDEMPOTENT_WRITE))
        .tool(read("look"));
    SessionEngine engine = h.engine(source, EngineOptions.DEFAULT);
    Future<TurnResult> pending = engine.submit(new Turn("t1", List.of(
        call("cancel", "1"), call("note", "1"), call("look", "1"))));
    ApprovalRequest request = h.pendingFor(1).get(0);
    await(engine.decide(ApprovalDecision.reject(request, "bob", "customer changed their mind")));
    TurnResult result = await(pending);
    assertThat(result.call(0).outcome()).isEqualTo(Outcome.FAILED);
    assertThat(result.call(0).error()).contains("rejected by bob: customer changed their mind");
    assertThat(result.call(1).skipped()).isTrue();
    assertThat(result.call(1).outcome()).isEqualTo(Outcome.FAILED);
    assertThat(result.call(1).error()).startsWith(CallResult.NOT_RUN_PREFIX);
    assertThat(result.call(2).outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(provider.order).containsExactly("look");
  }

  @Test
  void anApprovalPredicateDecidesPerCallAndOneThatThrowsAsks() {
    FunctionToolSource source = FunctionToolSource.create("t")
        .tool(write("refund", EffectClass.IDEMPOTENT_WRITE).approval(ApprovalRule.when(args -> {
          if (!args.containsKey("amount")) {
            throw new IllegalStateException("no amount");
          }
          return args.getDouble("amount") > 100;
        })));
    SessionEngine engine = h.engine(source, EngineOptions.DEFAULT);
    TurnResult small = await(engine.submit(Turn.of("small",
        new ToolCall("refund", new JsonObject().put("orderId", "1").put("amount", 20)))));
    assertThat(small.call(0).approval()).isNull();
    assertThat(small.call(0).outcome()).isEqualTo(Outcome.SUCCEEDED);

    Future<TurnResult> big = engine.submit(Turn.of("big",
        new ToolCall("refund", new JsonObject().put("orderId", "2").put("amount", 500))));
    ApprovalRequest first = h.pendingFor(1).get(0);
    Future<TurnResult> throwing = engine.submit(Turn.of("throwing",
        new ToolCall("refund", new JsonObject().put("orderId", "3"))));
    assertThat(first.arguments().getInteger("amount")).isEqualTo(500);
    await(engine.decide(ApprovalDecision.approve(first, "alice", null)));
    await(big);
    ApprovalRequest second = h.pendingFor(1).get(0);
    assertThat(second.askedBecause()).contains("predicate failed");
    await(engine.decide(ApprovalDecision.approve(second, "alice", null)));
    assertThat(await(throwing).call(0).outcome()).isEqualTo(Outcome.SUCCEEDED);
  }

  @Test
  void readThatNeedsApprovalWaitsForItsOwnDecisionWithoutHoldingUpOtherReads() {
    FunctionToolSource source = FunctionToolSource.create("t")
        .tool(read("look"))
        .tool(read("export").approval(ApprovalRule.always()));
    SessionEngine engine = h.engine(source, EngineOptions.DEFAULT);
    Future<TurnResult> pending = engine.submit(new Turn("t1", List.of(call("export", "1"), call("look", "1"))));
    ApprovalRequest request = h.pendingFor(1).get(0);
    assertThat(request.tool()).isEqualTo("export");
    assertThat(provider.order).containsExactly("look");
    assertThat(pending.isComplete()).isFalse();

    await(engine.decide(ApprovalDecision.approve(request, "alice", "fine")));
    TurnResult result = await(pending);
    assertThat(provider.order).containsExactly("look", "export");
    assertThat(result.call(0).outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(result.call(0).approval().approver()).isEqualTo("alice");
    assertThat(result.call(1).outcome()).isEqualTo(Outcome.SUCCEEDED);
  }

  @Test
  void aRejectedReadFailsWithTheReason() {
    FunctionToolSource source = FunctionToolSource.create("t")
        .tool(read("export").approval(ApprovalRule.always()))
        .tool(read("look"));
    SessionEngine engine = h.engine(source, EngineOptions.DEFAULT);
    Future<TurnResult> pending = engine.submit(new Turn("t1", List.of(call("export", "1"), call("look", "1"))));
    await(engine.decide(ApprovalDecision.reject(h.pendingFor(1).get(0), "bob", "contains personal data")));
    TurnResult result = await(pending);
    assertThat(result.call(0).outcome()).isEqualTo(Outcome.FAILED);
    assertThat(result.call(0).error()).contains("refused").contains("rejected by bob: contains personal data")
        .doesNotContain("safe to call again");
    assertThat(result.call(0).approval().status()).isEqualTo("rejected");
    assertThat(result.call(1).outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(provider.order).containsExactly("look");
  }

  @Test
  void aPredicateThatThrowsAnErrorMeansAsk() {
    FunctionToolSource source = FunctionToolSource.create("t")
        .tool(write("refund", EffectClass.IDEMPOTENT_WRITE).approval(ApprovalRule.when(args -> {
          throw new StackOverflowError();
        })))
        .tool(read("look").approval(ApprovalRule.when(args -> {
          throw new AssertionError("broken predicate");
        })));
    SessionEngine engine = h.engine(source, EngineOptions.DEFAULT);
    Future<TurnResult> pending = engine.submit(new Turn("t1", List.of(call("refund", "1"), call("look", "1"))));
    List<ApprovalRequest> requests = h.pendingFor(2);
    assertThat(requests).extracting(ApprovalRequest::askedBecause).allMatch(why -> why.contains("predicate failed"));
    assertThat(provider.order).isEmpty();
    for (ApprovalRequest request : requests) {
      await(engine.decide(ApprovalDecision.approve(request, "alice", null)));
    }
    TurnResult result = await(pending);
    assertThat(result.call(0).outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(result.call(1).outcome()).isEqualTo(Outcome.SUCCEEDED);
  }

  @Test
  void aRejectedWriteSaysAPersonRefusedItAndNothingAboutCallingAgain() {
    FunctionToolSource source = FunctionToolSource.create("t")
        .tool(write("cancel", EffectClass.NON_IDEMPOTENT_WRITE).approval(ApprovalRule.always()))
        .tool(write("note", EffectClass.NON_IDEMPOTENT_WRITE));
    SessionEngine engine = h.engine(source, EngineOptions.DEFAULT);
    Future<TurnResult> pending = engine.submit(new Turn("t1", List.of(call("cancel", "1"), call("note", "1"))));
    await(engine.decide(ApprovalDecision.reject(h.pendingFor(1).get(0), "bob", "not this customer")));
    TurnResult result = await(pending);
    assertThat(result.call(0).error())
        .isEqualTo("the tool did not run because a person refused it: rejected by bob: not this customer");
    assertThat(result.call(1).skipped()).isTrue();
    assertThat(result.call(1).error()).startsWith("the tool did not run, so it is safe to call again");
  }

  @Test
  void aCallThatWaitedForApprovalShowsTheWaitApartFromItsRun() {
    try (EngineHarness moved = new EngineHarness(Instant.parse("2026-03-02T09:00:00Z"))) {
      FunctionToolSource source = FunctionToolSource.create("t")
          .tool(write("refund", EffectClass.IDEMPOTENT_WRITE).approval(ApprovalRule.always()))
          .tool(read("export").approval(ApprovalRule.always()));
      SessionEngine engine = moved.engine(source, EngineOptions.DEFAULT);
      Future<TurnResult> pending = engine.submit(new Turn("t1", List.of(call("refund", "1"), call("export", "1"))));
      List<ApprovalRequest> requests = moved.pendingFor(2);
      await(moved.movable().advance(Duration.ofMinutes(20)));
      for (ApprovalRequest request : requests) {
        await(engine.decide(ApprovalDecision.approve(request, "alice", null)));
      }
      TurnResult result = await(pending);
      for (CallResult r : result.calls()) {
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCEEDED);
        assertThat(r.approvalWaitMillis()).isEqualTo(Duration.ofMinutes(20).toMillis());
        assertThat(r.durationMillis()).isZero();
        assertThat(r.toJson().getLong("approvalWaitMs")).isEqualTo(r.approvalWaitMillis());
      }
    }
  }

  @Test
  void aFailedWriteSkipsEveryLaterWriteOfItsTurnWithTheSafeToCallAgainMessage() {
    FunctionToolSource source = FunctionToolSource.create("t")
        .tool(FunctionToolSource.define("charge", EffectClass.NON_IDEMPOTENT_WRITE).schema(ORDER_SCHEMA)
            .invoke(inv -> {
              provider.record("charge", inv);
              return Future.succeededFuture(ToolResult.rejected("card declined"));
            }))
        .tool(write("ship", EffectClass.NON_IDEMPOTENT_WRITE))
        .tool(write("email", EffectClass.IDEMPOTENT_WRITE));
    SessionEngine engine = h.engine(source, EngineOptions.DEFAULT);
    TurnResult result = await(engine.submit(new Turn("t1", List.of(call("charge", "1"), call("ship", "1"),
        call("email", "1")))));
    assertThat(result.call(0).outcome()).isEqualTo(Outcome.FAILED);
    assertThat(result.call(0).error()).isEqualTo("card declined");
    for (int i = 1; i <= 2; i++) {
      assertThat(result.call(i).skipped()).isTrue();
      assertThat(result.call(i).error()).startsWith("the tool did not run, so it is safe to call again");
      assertThat(result.call(i).attempts()).isZero();
    }
    assertThat(provider.order).containsExactly("charge");
  }

  @Test
  void resultsComeBackInTheModelsOrderOneRecordPerCall() {
    FunctionToolSource source = FunctionToolSource.create("t").tool(read("look"))
        .tool(write("note", EffectClass.NON_IDEMPOTENT_WRITE));
    SessionEngine engine = h.engine(source, EngineOptions.DEFAULT);
    TurnResult result = await(engine.submit(new Turn("t1", List.of(call("note", "a"), call("look", "b"),
        new ToolCall("look", new JsonObject().put("orderId", "c"), "model-call-7")))));
    assertThat(result.calls()).hasSize(3);
    for (int i = 0; i < 3; i++) {
      assertThat(result.call(i).index()).isEqualTo(i);
      assertThat(result.call(i).callId()).isEqualTo(CallId.of(h.sessionId, "t1", i));
      assertThat(result.call(i).attempts()).isEqualTo(1);
      assertThat(result.call(i).skipped()).isFalse();
    }
    assertThat(((JsonObject) result.call(1).result()).getString("orderId")).isEqualTo("b");
    assertThat(result.call(2).modelCallId()).isEqualTo("model-call-7");
  }

  @Test
  void aFailureBeforeTheRequestLeftIsFailedAndSafeNeverOutcomeUnknown() {
    FunctionToolSource source = FunctionToolSource.create("t")
        .tool(FunctionToolSource.define("post", EffectClass.NON_IDEMPOTENT_WRITE).schema(ORDER_SCHEMA)
            .invoke(inv -> Future.failedFuture(new ToolNotSentException("connection refused"))));
    SessionEngine engine = h.engine(source, EngineOptions.DEFAULT);
    CallResult r = await(engine.submit(Turn.of("t1", call("post", "1")))).call(0);
    assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(r.error()).isEqualTo(CallResult.NOT_RUN_PREFIX + ": connection refused");
  }

  @Test
  void aDecisionForOtherArgumentsAnUnknownCallOrADecidedCallIsRefused() {
    FunctionToolSource source = FunctionToolSource.create("t")
        .tool(write("refund", EffectClass.NON_IDEMPOTENT_WRITE).approval(ApprovalRule.always()));
    SessionEngine engine = h.engine(source, EngineOptions.DEFAULT);
    Future<TurnResult> pending = engine.submit(Turn.of("t1", call("refund", "1")));
    ApprovalRequest request = h.pendingFor(1).get(0);

    ApprovalDecision stale = new ApprovalDecision(h.sessionId, request.callId(), "not-the-hash-shown", true, "eve", null);
    assertThat(await(engine.decide(stale))).isEqualTo(DecisionAnswer.STALE);
    ApprovalDecision unknown = new ApprovalDecision(h.sessionId, new CallId("call_nope"), request.argumentsHash(), true,
        "eve", null);
    assertThat(await(engine.decide(unknown))).isEqualTo(DecisionAnswer.UNKNOWN_CALL);
    assertThat(pending.isComplete()).isFalse();
    assertThat(provider.order).isEmpty();

    assertThat(await(engine.decide(ApprovalDecision.reject(request, "alice", "no")))).isEqualTo(DecisionAnswer.ACCEPTED);
    assertThat(await(engine.decide(ApprovalDecision.approve(request, "eve", "sneaky"))))
        .isEqualTo(DecisionAnswer.ALREADY_DECIDED);
    assertThat(await(pending).call(0).outcome()).isEqualTo(Outcome.FAILED);
    assertThat(provider.order).isEmpty();
  }

  @Test
  void anExpiredApprovalCountsAsRejected() {
    FunctionToolSource source = FunctionToolSource.create("t")
        .tool(write("refund", EffectClass.NON_IDEMPOTENT_WRITE).approval(ApprovalRule.always()));
    SessionEngine engine = h.engine(source, EngineOptions.DEFAULT.withApprovalTimeoutMillis(300));
    CallResult r = await(engine.submit(Turn.of("t1", call("refund", "1")))).call(0);
    assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(r.error()).contains("approval expired");
    assertThat(r.approval().status()).isEqualTo("expired");
    assertThat(provider.order).isEmpty();
  }

  @Test
  void anOversizedReadResultFailsClearlyWhileASucceededWriteStaysSucceededAndTruncated() {
    String big = "x".repeat(4000);
    FunctionToolSource source = FunctionToolSource.create("t")
        .tool(FunctionToolSource.define("dump", EffectClass.READ).handler(inv -> Future.succeededFuture(big)))
        .tool(FunctionToolSource.define("post", EffectClass.NON_IDEMPOTENT_WRITE).handler(inv -> {
          provider.record("post", inv);
          return Future.succeededFuture(big);
        }));
    SessionEngine engine = h.engine(source, EngineOptions.DEFAULT.withMaxResultBytes(1024));
    TurnResult result = await(engine.submit(new Turn("t1", List.of(new ToolCall("dump", null),
        new ToolCall("post", null)))));
    assertThat(result.call(0).outcome()).isEqualTo(Outcome.FAILED);
    assertThat(result.call(0).error()).contains("over the limit of 1024 bytes");
    assertThat(result.call(1).outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(result.call(1).truncated()).isTrue();
    assertThat(result.call(1).result().toString().length()).isLessThan(1024);
    assertThat(provider.count("post")).isEqualTo(1);
  }

  @Test
  void everyStepIsPublishedAsAnEvent() {
    SessionEngine engine = h.engine(FunctionToolSource.create("t").tool(write("note", EffectClass.NON_IDEMPOTENT_WRITE)),
        EngineOptions.DEFAULT);
    await(engine.submit(Turn.of("t1", call("note", "1"))));
    assertThat(h.events).extracting(e -> e.getString("type"))
        .containsSubsequence("turn.submitted", "call.started", "call.completed", "turn.completed");
    List<JsonObject> journaled = await(JournalPorts.queries(h.journal).events(h.sessionId, null, 100));
    assertThat(journaled).extracting(e -> e.getString("type"))
        .containsSubsequence("session.claimed", "turn.submitted", "call.started", "call.completed", "turn.completed");
  }
}
