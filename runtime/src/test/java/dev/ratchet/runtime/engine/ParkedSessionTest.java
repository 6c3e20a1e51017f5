package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.testing.Await;
import dev.ratchet.runtime.testing.Recorder;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * When a session may move to another owner without a call ending {@code outcome_unknown}: only
 * while nothing of it is in flight ({@link SessionEngine#isParked()}), and turns taken meanwhile
 * are journaled for the next owner, which runs them once (docs/ARCHITECTURE.md, "More than one node").
 */
class ParkedSessionTest {

  @RegisterExtension
  final EngineHarness h = new EngineHarness();

  private final Recorder provider = new Recorder();
  /** The answer of the write "send" that is being sent now; the provider holds it until the test completes it. */
  private final AtomicReference<Promise<Object>> sending = new AtomicReference<>();

  private FunctionToolSource source() {
    return FunctionToolSource.create("t")
        .tool(FunctionToolSource.define("look", EffectClass.READ).handler(inv -> {
          provider.record("look", inv);
          return Future.succeededFuture(new JsonObject().put("seen", true));
        }))
        .tool(FunctionToolSource.define("refund", EffectClass.NON_IDEMPOTENT_WRITE).approval(ApprovalRule.always())
            .handler(inv -> {
              provider.record("refund", inv);
              return Future.succeededFuture(new JsonObject().put("refunded", true));
            }))
        .tool(FunctionToolSource.define("send", EffectClass.NON_IDEMPOTENT_WRITE).handler(inv -> {
          provider.record("send", inv);
          Promise<Object> answer = Promise.promise();
          sending.set(answer);
          return answer.future();
        }));
  }

  private static ToolCall call(String tool) {
    return new ToolCall(tool, new JsonObject());
  }

  private static boolean parked(SessionEngine engine) {
    return await(engine.onContext(() -> Future.succeededFuture(engine.isParked())));
  }

  @Test
  void aSessionWhoseWritesWaitForADecisionIsParkedAndOneSendingAWriteIsNot() {
    SessionEngine engine = h.engine(source(), EngineOptions.DEFAULT);
    assertThat(parked(engine)).as("a session with no turn").isTrue();

    Future<TurnResult> waiting = engine.submit(new Turn("t1", List.of(call("look"), call("refund"), call("send"))));
    ApprovalRequest request = h.pendingFor(1).get(0);
    Await.until(() -> provider.count("look") == 1 && parked(engine), 10);
    assertThat(parked(engine)).as("read done, refund waits for its decision, send queued behind it").isTrue();

    await(engine.decide(ApprovalDecision.approve(request, "alice", null)));
    Await.until(() -> sending.get() != null, 10);
    assertThat(parked(engine)).as("send is being sent").isFalse();

    sending.get().complete(new JsonObject().put("sent", true));
    TurnResult result = await(waiting);
    assertThat(result.call(2).outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(parked(engine)).isTrue();
    assertThat(engine.isIdle()).isTrue();
  }

  @Test
  void aTurnTakenForTheNextOwnerIsJournaledNotRunAndTheNextOwnerRunsItOnce() {
    SessionEngine leaving = h.engine(source(), EngineOptions.DEFAULT);
    Future<TurnResult> first = leaving.submit(new Turn("t1", List.of(call("refund"))));
    h.pendingFor(1);
    await(leaving.acceptForNextOwner(new Turn("t2", List.of(call("look"))), null, null));
    assertThat(provider.count("look")).as("not run by the member that leaves").isZero();
    assertThat(leaving.isIdle()).as("a turn left for the next owner keeps the session from being passivated").isFalse();
    Await.until(() -> parked(leaving), 10);
    await(leaving.stop());
    Await.until(first::isComplete, 10);
    assertThat(first.failed()).as("the member that leaves never delivers t1").isTrue();

    SessionEngine next = h.engine(source(), EngineOptions.DEFAULT);
    ApprovalRequest request = h.pendingFor(1).get(0);
    await(next.decide(ApprovalDecision.approve(request, "alice", null)));
    TurnResult t1 = await(next.submit(new Turn("t1", List.of(call("refund")))));
    TurnResult t2 = await(next.submit(new Turn("t2", List.of(call("look")))));
    assertThat(t1.call(0).outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(t2.call(0).outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(provider.count("refund")).isEqualTo(1);
    assertThat(provider.count("look")).isEqualTo(1);
  }
}
