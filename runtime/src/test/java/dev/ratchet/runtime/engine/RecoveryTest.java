package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.journal.JournalPorts;
import dev.ratchet.runtime.journal.ClaimedSession;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolResult;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.journal.DecisionAnswer;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.runtime.testing.Await;
import dev.ratchet.runtime.testing.Recorder;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;

import static dev.ratchet.runtime.testing.Await.await;
import static dev.ratchet.runtime.testing.Await.failure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Recovery: a session run by one node that stops mid-turn is resumed by a second node on the same
 * journal, under the journal invariants J1-J5.
 */
class RecoveryTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  @RegisterExtension
  final RedisNodes runtimes = new RedisNodes(REDIS);

  private String sessionId;
  private Recorder provider;

  /** One runtime: its own Vert.x, its own journal client, one engine for the test's session. */
  private final class Node {
    final RedisNodes.Node runtime = runtimes.open();
    final Vertx vertx = runtime.vertx();
    final RedisJournal journal = runtime.journal();
    SessionEngine engine;

    SessionEngine start(String name, FunctionToolSource source) {
      return start(name, source, null);
    }

    SessionEngine start(String name, FunctionToolSource source, Consumer<JsonObject> events) {
      engine = runtime.engine(sessionId, name, AgentDefinition.builder("test-agent").toolSource(source).build(), events);
      return engine;
    }

    /** The node dies: its Vert.x goes away without waiting for anything in flight. */
    void crash() {
      vertx.close();
    }
  }

  @BeforeEach
  void setUp() {
    sessionId = "s-" + UUID.randomUUID();
    provider = new Recorder();
  }

  private static ToolCall call(String tool, String orderId) {
    return new ToolCall(tool, new JsonObject().put("orderId", orderId));
  }

  /** A tool that records each invocation and answers with {@code answer}. */
  private FunctionToolSource.Builder tool(String name, EffectClass ec, Function<ToolInvocation, Future<Object>> answer) {
    return FunctionToolSource.define(name, ec).handler(inv -> {
      provider.record(name, inv);
      return answer.apply(inv);
    });
  }

  /** The source of the test's tools. */
  private static FunctionToolSource source(FunctionToolSource.Builder... tools) {
    FunctionToolSource source = FunctionToolSource.create("t");
    for (FunctionToolSource.Builder t : tools) {
      source.tool(t);
    }
    return source;
  }

  /** A first node runs the turn of one call until its tool was called, then crashes. */
  private void crashWhileRunning(Turn turn, FunctionToolSource.Builder tool) {
    Node first = new Node();
    first.start("node-1", source(tool));
    first.engine.submit(turn);
    Await.until(() -> provider.count(turn.calls().get(0).name()) == 1, 10);
    first.crash();
  }

  private static Future<Object> never(ToolInvocation inv) {
    return Promise.promise().future();
  }

  private static Future<Object> ok(ToolInvocation inv) {
    return Future.succeededFuture(new JsonObject().put("orderId", inv.arguments().getString("orderId"))
        .put("attempt", inv.attempt()));
  }

  private List<ApprovalRequest> pending(RedisJournal journal, int expected) {
    return EngineHarness.pending(journal, sessionId, expected);
  }

  @Test
  void aNonIdempotentWriteStartedBeforeACrashIsOutcomeUnknownAfterRestartAndNeverResent() {
    Turn turn = Turn.of("t1", call("post", "1"));
    crashWhileRunning(turn, tool("post", EffectClass.NON_IDEMPOTENT_WRITE, RecoveryTest::never));

    Node second = new Node();
    second.start("node-2", source(tool("post", EffectClass.NON_IDEMPOTENT_WRITE,
        RecoveryTest::ok)));
    CallResult r = await(second.engine.submit(turn)).call(0);
    assertThat(r.outcome()).isEqualTo(Outcome.OUTCOME_UNKNOWN);
    assertThat(r.error()).contains("not sent again").doesNotStartWith(CallResult.NOT_RUN_PREFIX);
    // the outcome is journaled after the call's last attempt: nothing of it can be sent later
    assertThat(provider.count("post")).isEqualTo(1);
    assertThat(await(second.journal.turnResult(sessionId, "t1")).call(0).outcome()).isEqualTo(Outcome.OUTCOME_UNKNOWN);
  }

  @Test
  void anIdempotentWriteInFlightAtACrashIsLookedUpFirstAndNotResentWhenFound() {
    Turn turn = Turn.of("t1", call("refund", "1"));
    crashWhileRunning(turn, tool("refund", EffectClass.IDEMPOTENT_WRITE, RecoveryTest::never));
    String key = provider.invocations.get(0).idempotencyKey().value();

    List<ToolInvocation> lookups = new ArrayList<>();
    Node second = new Node();
    second.start("node-2", source(tool("refund", EffectClass.IDEMPOTENT_WRITE,
        RecoveryTest::ok).lookup(inv -> {
          lookups.add(inv);
          return Future.succeededFuture(Optional.of(ToolResult.success(new JsonObject().put("refundId", "r-1"))));
        })));
    CallResult r = await(second.engine.submit(turn)).call(0);
    assertThat(r.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(r.result()).isEqualTo(new JsonObject().put("refundId", "r-1"));
    assertThat(lookups).hasSize(1);
    assertThat(lookups.get(0).idempotencyKey().value()).isEqualTo(key);
    assertThat(provider.count("refund")).isEqualTo(1);
  }

  @Test
  void anIdempotentWriteInFlightAtACrashIsResentWithTheSameKeyWhenTheLookupFindsNothing() {
    Turn turn = Turn.of("t1", call("refund", "1"));
    crashWhileRunning(turn, tool("refund", EffectClass.IDEMPOTENT_WRITE, RecoveryTest::never));

    List<String> lookedUp = new ArrayList<>();
    Node second = new Node();
    second.start("node-2", source(tool("refund", EffectClass.IDEMPOTENT_WRITE,
        RecoveryTest::ok).lookup(inv -> {
          lookedUp.add(inv.idempotencyKey().value());
          return Future.succeededFuture(Optional.empty());
        })));
    CallResult r = await(second.engine.submit(turn)).call(0);
    assertThat(r.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(lookedUp).hasSize(1);
    assertThat(provider.count("refund")).isEqualTo(2);
    assertThat(provider.byKey).hasSize(1);
    assertThat(provider.byKey).containsKey(lookedUp.get(0));
  }

  @Test
  void completedCallsOfAnInflightTurnAreNotRunAgainAfterRestart() {
    Turn turn = new Turn("t1", List.of(call("look", "1"), call("note", "1"), call("refund", "1")));
    Node first = new Node();
    first.start("node-1", FunctionToolSource.create("t")
        .tool(tool("look", EffectClass.READ, RecoveryTest::ok))
        .tool(tool("note", EffectClass.NON_IDEMPOTENT_WRITE, RecoveryTest::ok))
        .tool(tool("refund", EffectClass.IDEMPOTENT_WRITE, RecoveryTest::never)));
    first.engine.submit(turn);
    Await.until(() -> provider.count("refund") == 1, 10);
    Await.until(() -> await(first.journal.callState(sessionId, turn.callId(sessionId, 0))).isDone(), 10);
    first.crash();

    Node second = new Node();
    second.start("node-2", FunctionToolSource.create("t")
        .tool(tool("look", EffectClass.READ, RecoveryTest::ok))
        .tool(tool("note", EffectClass.NON_IDEMPOTENT_WRITE, RecoveryTest::ok))
        .tool(tool("refund", EffectClass.IDEMPOTENT_WRITE, RecoveryTest::ok)));
    TurnResult result = await(second.engine.submit(turn));
    assertThat(result.calls()).extracting(CallResult::outcome).containsOnly(Outcome.SUCCEEDED);
    assertThat(provider.count("look")).isEqualTo(1);
    assertThat(provider.count("note")).isEqualTo(1);
    assertThat(provider.count("refund")).isEqualTo(2);
    assertThat(provider.order).containsExactly("look", "note", "refund", "refund");
  }

  @Test
  void aPendingApprovalIsStillPendingAfterRestartAndApprovingItRunsTheWriteOnce() {
    Turn turn = Turn.of("t1", call("refund", "1"));
    Node first = new Node();
    first.start("node-1", source(tool("refund", EffectClass.NON_IDEMPOTENT_WRITE,
        RecoveryTest::ok).approval(ApprovalRule.always())));
    first.engine.submit(turn);
    ApprovalRequest before = pending(first.journal, 1).get(0);
    first.crash();

    Node second = new Node();
    second.start("node-2", source(tool("refund", EffectClass.NON_IDEMPOTENT_WRITE,
        RecoveryTest::ok).approval(ApprovalRule.always())));
    Future<TurnResult> result = second.engine.submit(turn);
    List<ApprovalRequest> after = pending(second.journal, 1);
    assertThat(after).hasSize(1);
    assertThat(after.get(0).toJson()).isEqualTo(before.toJson());
    // parked: the engine says the call waits for its decision and for nothing else
    Await.until(() -> await(second.engine.onContext(() -> Future.succeededFuture(second.engine.isParked()))), 10);
    assertThat(result.isComplete()).isFalse();
    assertThat(provider.order).isEmpty();

    assertThat(await(second.engine.decide(ApprovalDecision.approve(after.get(0), "alice", "fine"))))
        .isEqualTo(DecisionAnswer.ACCEPTED);
    CallResult r = await(result).call(0);
    assertThat(r.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(r.approval().approver()).isEqualTo("alice");
    assertThat(provider.count("refund")).isEqualTo(1);
    assertThat(pending(second.journal, 0)).isEmpty();
  }

  @Test
  void theFirstNodeOnceFencedCannotCompleteOrSubmitAnything() {
    Turn turn = Turn.of("t1", call("post", "1"));
    Promise<Object> inFlight = Promise.promise();
    Node first = new Node();
    first.start("node-1", source(tool("post", EffectClass.NON_IDEMPOTENT_WRITE,
        inv -> inFlight.future())));
    Future<TurnResult> firstResult = first.engine.submit(turn);
    Await.until(() -> provider.count("post") == 1, 10);
    long staleEpoch = first.engine.epoch();

    Node second = new Node();
    second.start("node-2", source(tool("post", EffectClass.NON_IDEMPOTENT_WRITE,
        RecoveryTest::ok)));
    assertThat(second.engine.epoch()).isGreaterThan(staleEpoch);
    assertThat(await(second.engine.submit(turn)).call(0).outcome()).isEqualTo(Outcome.OUTCOME_UNKNOWN);
    int events = await(JournalPorts.queries(second.journal).events(sessionId, null, 10_000)).size();

    // the first node's tool answers late: its completion is refused and its turn fails as fenced
    first.vertx.runOnContext(v -> inFlight.complete(new JsonObject().put("late", true)));
    Throwable err = failure(firstResult);
    assertThat(err).isInstanceOf(RatchetException.class);
    assertThat(((RatchetException) err).code()).isEqualTo("FENCED");
    assertThat(first.engine.isFenced()).isTrue();
    assertThat(await(second.journal.callState(sessionId, turn.callId(sessionId, 0))).record().outcome())
        .isEqualTo(Outcome.OUTCOME_UNKNOWN);

    RatchetException appendErr = (RatchetException) failure(first.journal.appendEvent(sessionId, staleEpoch,
        "call.attempt_failed", "t1", null, new JsonObject()));
    assertThat(appendErr.code()).isEqualTo("FENCED");

    Throwable submitErr = failure(first.engine.submit(Turn.of("t2", call("post", "2"))));
    assertThat(((RatchetException) submitErr).code()).isEqualTo("FENCED");
    assertThat(await(second.journal.inflightTurns(sessionId))).isEmpty();
    assertThat(await(JournalPorts.queries(second.journal).events(sessionId, null, 10_000))).hasSize(events);
    assertThat(provider.count("post")).isEqualTo(1);
  }

  @Test
  void aFencedNodeDoesNotSubmitEvenBeforeItNoticedTheTakeover() {
    Node first = new Node();
    first.start("node-1", source(tool("post", EffectClass.NON_IDEMPOTENT_WRITE,
        RecoveryTest::ok)));
    Node second = new Node();
    second.start("node-2", source(tool("post", EffectClass.NON_IDEMPOTENT_WRITE,
        RecoveryTest::ok)));
    assertThat(first.engine.isFenced()).isFalse();

    Throwable err = failure(first.engine.submit(Turn.of("t1", call("post", "1"))));
    assertThat(((RatchetException) err).code()).isEqualTo("FENCED");
    assertThat(first.engine.isFenced()).isTrue();
    assertThat(provider.order).isEmpty();
    assertThat(await(second.journal.turnResult(sessionId, "t1"))).isNull();
    assertThat(await(second.journal.inflightTurns(sessionId))).isEmpty();
  }

  @Test
  void aNodeTakenOverWhileAWriteIsInFlightJournalsNothingMoreAndDoesNotSendTheNextWrite() {
    Turn turn = new Turn("t1", List.of(call("note", "1"), call("refund", "1")));
    Node second = new Node();
    Node first = new Node();
    first.start("node-1", FunctionToolSource.create("t")
        // another node takes the session over while the first write's request is out
        .tool(tool("note", EffectClass.NON_IDEMPOTENT_WRITE,
            inv -> second.journal.claim(sessionId, "node-2").map(ClaimedSession::epoch).compose(e -> ok(inv))))
        .tool(tool("refund", EffectClass.IDEMPOTENT_WRITE, RecoveryTest::ok)));
    Throwable err = failure(first.engine.submit(turn));
    assertThat(((RatchetException) err).code()).isEqualTo("FENCED");
    // the refused step carried the next write's start, and a write is sent only after its start is journaled
    assertThat(provider.order).containsExactly("note");
    assertThat(await(second.journal.callState(sessionId, turn.callId(sessionId, 1))).wasStarted())
        .as("the next write's start rode on the refused step, so it was not journaled either").isFalse();

    second.start("node-2", FunctionToolSource.create("t")
        .tool(tool("note", EffectClass.NON_IDEMPOTENT_WRITE, RecoveryTest::ok))
        .tool(tool("refund", EffectClass.IDEMPOTENT_WRITE, RecoveryTest::ok)));
    TurnResult result = await(second.engine.submit(turn));
    assertThat(result.calls()).extracting(CallResult::outcome)
        .containsExactly(Outcome.OUTCOME_UNKNOWN, Outcome.FAILED);
    assertThat(result.calls().get(1).skipped()).isTrue();
    assertThat(provider.order).containsExactly("note");
  }
}
