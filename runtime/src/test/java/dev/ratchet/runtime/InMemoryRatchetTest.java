package dev.ratchet.runtime;

import dev.ratchet.runtime.agent.AgentReply;
import dev.ratchet.runtime.agent.ModelResponse;
import dev.ratchet.runtime.agent.ScriptedModel;
import dev.ratchet.runtime.testing.OrderTools;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.ratchet.runtime.testing.Await.await;
import static dev.ratchet.runtime.testing.Await.failure;
import static dev.ratchet.runtime.testing.Await.until;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an application's own test does with {@link Ratchet#inMemory}: the turn rules of a deployed
 * node through the public facade only, with no Redis.
 */
@Timeout(30)
class InMemoryRatchetTest {

  private final Vertx vertx = Vertx.vertx();
  private final Ratchet ratchet = Ratchet.inMemory(vertx, RatchetClock.system(vertx));
  private final AtomicInteger lookups = new AtomicInteger();
  private final AtomicInteger refunds = new AtomicInteger();

  @AfterEach
  void close() {
    await(ratchet.close());
    await(vertx.close());
  }

  private AgentDefinition shop() {
    FunctionToolSource tools = OrderTools.lookUpOrder(lookups)
        .tool(OrderTools.approvedWrite("refund_order", "Refund", refunds, new JsonObject().put("refunded", true)));
    return AgentDefinition.builder("shop").toolSource(tools).build();
  }

  private static Turn twoReadsAndARefund(String turnId) {
    return Turn.of(turnId,
        new ToolCall("look_up_order", new JsonObject().put("orderId", "1001")),
        new ToolCall("look_up_order", new JsonObject().put("orderId", "1002")),
        new ToolCall("refund_order", new JsonObject().put("orderId", "1002")));
  }

  @Test
  void aTurnWaitsForItsApprovalAndCompletesOnceItIsDecided() {
    await(ratchet.register(shop()));
    Accepted<TurnResult> accepted = await(ratchet.accept(TurnRequest.of("shop", "s-1", twoReadsAndARefund("t1"))
        .callerId("tenant-7").creator("alice")));

    until(() -> !await(ratchet.pendingApprovals()).isEmpty(), 10);
    List<ApprovalRequest> pending = await(ratchet.pendingApprovals());
    assertThat(pending).hasSize(1);
    ApprovalRequest request = pending.get(0);
    assertThat(request.tool()).isEqualTo("refund_order");
    assertThat(request.sessionId()).isEqualTo("s-1");
    assertThat(lookups.get()).isEqualTo(2);
    assertThat(refunds.get()).isZero();
    assertThat(accepted.result().isComplete()).isFalse();
    assertThat(await(ratchet.queries().turnResult("s-1", "t1"))).isNull();

    assertThat(await(ratchet.decide(ApprovalDecision.approve(request, "bob", "ok"))))
        .isEqualTo(DecisionResult.ACCEPTED);
    TurnResult result = await(accepted.result());

    assertThat(result.calls()).extracting(CallResult::outcome)
        .containsExactly(Outcome.SUCCEEDED, Outcome.SUCCEEDED, Outcome.SUCCEEDED);
    assertThat(refunds.get()).isEqualTo(1);
    assertThat(await(ratchet.pendingApprovals())).isEmpty();
    assertThat(await(ratchet.decide(ApprovalDecision.approve(request, "bob", "again"))))
        .isEqualTo(DecisionResult.ALREADY_DECIDED);
    assertThat(await(ratchet.queries().turnResult("s-1", "t1")).calls()).hasSize(3);
    assertThat(await(ratchet.queries().session("s-1")).getString("caller")).isEqualTo("tenant-7");
    assertThat(await(ratchet.queries().events("s-1", null, 100))).extracting(e -> e.getString("type"))
        .contains("approval.requested", "approval.decided", "turn.completed");
  }

  @Test
  void aRetryFallsDueWhenTheTestMovesTheClockPastItsBackOff() {
    MovableClock clock = MovableClock.startingAt(vertx, Instant.parse("2026-03-02T09:00:00Z"));
    Ratchet moved = Ratchet.inMemory(vertx, clock);
    Duration retryAfter = Duration.ofMinutes(10);
    AtomicInteger attempts = new AtomicInteger();
    FunctionToolSource busy = FunctionToolSource.create("stock").tool(FunctionToolSource.define("look_up_stock",
        EffectClass.READ).retry(new RetryPolicy(2, Duration.ofSeconds(1), Duration.ofSeconds(1), 1.0)).invoke(inv -> {
          attempts.incrementAndGet();
          return Future.succeededFuture(inv.attempt() == 1 ? ToolResult.retryable("busy", retryAfter.toMillis())
              : ToolResult.success(new JsonObject().put("inStock", 3)));
        }));
    try {
      await(moved.register(AgentDefinition.builder("stock").toolSource(busy).build()));
      Future<TurnResult> turn = moved.submit("stock", "s-8", Turn.of("t1", new ToolCall("look_up_stock", null)));
      await(clock.whenPending(1));

      await(clock.advance(retryAfter.minusMillis(1)));
      assertThat(attempts.get()).isEqualTo(1);
      assertThat(turn.isComplete()).isFalse();

      await(clock.advance(Duration.ofMillis(1)));
      CallResult look = await(turn).call(0);
      assertThat(look.outcome()).isEqualTo(Outcome.SUCCEEDED);
      assertThat(look.attempts()).isEqualTo(2);
    } finally {
      await(moved.close());
    }
  }

  @Test
  void aTurnSubmittedAgainAnswersWithItsResultsAndRunsNothingTwice() {
    await(ratchet.register(shop()));
    Future<TurnResult> first = ratchet.submit("shop", "s-2", twoReadsAndARefund("t1"));
    until(() -> !await(ratchet.pendingApprovals()).isEmpty(), 10);
    await(ratchet.decide(ApprovalDecision.reject(await(ratchet.pendingApprovals()).get(0), "bob", "no")));
    TurnResult rejected = await(first);

    TurnResult again = await(ratchet.submit("shop", "s-2", twoReadsAndARefund("t1")));

    assertThat(rejected.call(2).outcome()).isEqualTo(Outcome.FAILED);
    assertThat(again).isEqualTo(rejected);
    assertThat(lookups.get()).isEqualTo(2);
    assertThat(refunds.get()).isZero();
  }

  @Test
  void aRefusedRequestJournalsNothing() {
    await(ratchet.register(shop()));
    Turn read = Turn.of("t1", new ToolCall("look_up_order", new JsonObject().put("orderId", "1")));
    await(ratchet.submit(TurnRequest.of("shop", "s-3", read).callerId("tenant-a")));

    Throwable otherCaller = failure(ratchet.submit(TurnRequest.of("shop", "s-3",
        Turn.of("t2", new ToolCall("look_up_order", new JsonObject().put("orderId", "2")))).callerId("tenant-b")));
    Throwable unknownAgent = failure(ratchet.submit("nobody", "s-4", read));
    Throwable badSession = failure(ratchet.submit("shop", "s\n5", read));
    Throwable duplicate = failure(ratchet.register(shop()));

    assertThat(((RatchetException) otherCaller).code()).isEqualTo("CALLER_MISMATCH");
    assertThat(((RatchetException) unknownAgent).code()).isEqualTo("UNKNOWN_AGENT");
    assertThat(((RatchetException) badSession).code()).isEqualTo("INVALID_ID");
    assertThat(((RatchetException) duplicate).code()).isEqualTo("DUPLICATE_AGENT");
    assertThat(await(ratchet.queries().turnResult("s-3", "t2"))).isNull();
    assertThat(await(ratchet.queries().sessions(0, 10))).containsExactly("s-3");
    assertThat(ratchet.queries().agents()).containsExactly("shop");
    assertThat(ratchet.queries().catalog("shop").entries()).hasSize(2);
  }

  @Test
  void aMessageRunsTheAgentLoopAndItsConversationIsReadBack() {
    ScriptedModel model = ScriptedModel.of(
        ModelResponse.toolCalls(new ToolCall("look_up_order", new JsonObject().put("orderId", "1002"), "c1")),
        ModelResponse.text("Order 1002 is open."));
    AgentDefinition withModel = AgentDefinition.builder("shop").toolSource(shop().toolSources().get(0))
        .model(model).build();
    await(ratchet.register(withModel));

    AgentReply reply = await(ratchet.send(MessageRequest.of("shop", "s-7", "where is order 1002?")
        .callerId("tenant-7").messageId("m-1")));
    AgentReply again = await(ratchet.send(MessageRequest.of("shop", "s-7", "where is order 1002?")
        .callerId("tenant-7").messageId("m-1")));

    assertThat(reply.text()).isEqualTo("Order 1002 is open.");
    assertThat(again.text()).isEqualTo(reply.text());
    assertThat(model.calls()).isEqualTo(2);
    assertThat(lookups.get()).isEqualTo(1);
    JsonObject conversation = await(ratchet.queries().conversation("s-7"));
    assertThat(conversation.getJsonArray("messages").stream().map(m -> ((JsonObject) m).getString("kind", "user")))
        .containsExactly("user", "model_response", "model_response", "final");
    assertThat(conversation.getJsonArray("messages").getJsonObject(1).getString("turnStatus")).isEqualTo("completed");
  }

  @Test
  void anAgentWithoutAModelRefusesMessages() {
    await(ratchet.register(shop()));

    Throwable refused = failure(ratchet.send(MessageRequest.of("shop", "s-6", "hello").messageId("m-1")));

    assertThat(((RatchetException) refused).code()).isEqualTo("NO_MODEL");
  }
}
