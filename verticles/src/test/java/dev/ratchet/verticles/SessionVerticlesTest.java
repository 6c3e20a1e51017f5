package dev.ratchet.verticles;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.testing.Await;
import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.verticles.testing.NodeFixture;
import io.vertx.core.Future;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.ratchet.runtime.testing.Await.await;
import static dev.ratchet.runtime.testing.Await.failure;
import static org.assertj.core.api.Assertions.assertThat;

/** The session verticles, their manager and the event-bus protocol, on real Redis. */
class SessionVerticlesTest extends NodeFixture {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private final AtomicInteger writes = new AtomicInteger();

  @Override
  protected RatchetOptions options(RatchetOptions onRedis) {
    return onRedis.sessionIdleMillis(300);
  }

  @BeforeEach
  void deploy() {
    FunctionToolSource tools = FunctionToolSource.create("shop")
        .read("look", "look", new JsonObject().put("type", "object"), inv -> Future.succeededFuture("order"))
        .tool(FunctionToolSource.define("cancel", EffectClass.NON_IDEMPOTENT_WRITE).handler(inv -> {
          writes.incrementAndGet();
          return Future.succeededFuture("cancelled");
        }))
        .tool(FunctionToolSource.define("refund", EffectClass.NON_IDEMPOTENT_WRITE).approval(ApprovalRule.always())
            .handler(inv -> {
              writes.incrementAndGet();
              return Future.succeededFuture("refunded");
            }));
    await(ratchet.register(AgentDefinition.builder("shop").toolSource(tools).build()));
  }

  private JsonObject request(String address, Object body) {
    Message<JsonObject> reply = await(vertx.eventBus().request(address, body));
    return reply.body();
  }

  private ReplyException refused(String address, Object body) {
    return (ReplyException) failure(vertx.eventBus().request(address, body));
  }

  @Test
  void aSessionIsPassivatedWhenIdleAndReplayedFromRedisOnItsNextMessage() {
    Turn turn = Turn.of("t1", new ToolCall("cancel", null));
    TurnResult first = await(ratchet.submit("shop", "s-passivate", turn));
    assertThat(ratchet.activeSessions()).isEqualTo(1);
    Await.until(() -> ratchet.activeSessions() == 0, 10);

    TurnResult again = await(ratchet.submit("shop", "s-passivate", turn));
    assertThat(again.toJson()).isEqualTo(first.toJson());
    assertThat(writes.get()).isEqualTo(1);
    assertThat(ratchet.activeSessions()).isEqualTo(1);
    TurnResult next = await(ratchet.submit("shop", "s-passivate", Turn.of("t2", new ToolCall("cancel", null))));
    assertThat(next.call(0).outcome().wireName()).isEqualTo("succeeded");
    assertThat(writes.get()).isEqualTo(2);
  }

  @Test
  void aTurnSubmittedOnTheEventBusIsAcknowledgedAndItsResultsAndStepEventsAreDelivered() {
    List<JsonObject> events = new CopyOnWriteArrayList<>();
    List<JsonObject> results = new CopyOnWriteArrayList<>();
    // the documented way for an application to hear a session's step events (docs/EVENT-BUS.md)
    await(StepEvents.consumer(vertx, "s-bus", m -> events.add(m.body())).completion());
    await(vertx.eventBus().<JsonObject>consumer("my.results", m -> results.add(m.body())).completion());
    JsonObject ack = request(Addresses.SUBMIT, new JsonObject().put("agent", "shop").put("sessionId", "s-bus")
        .put("replyAddress", "my.results")
        .put("turn", Turn.of("t1", new ToolCall("look", null), new ToolCall("cancel", null)).toJson()));
    assertThat(ack.getString("status")).isIn("accepted", "completed");
    Await.until(() -> !results.isEmpty(), 10);
    JsonArray calls = results.get(0).getJsonObject("results").getJsonArray("results");
    assertThat(calls.getJsonObject(0).getString("outcome")).isEqualTo("succeeded");
    assertThat(calls.getJsonObject(1).getString("result")).isEqualTo("cancelled");
    Await.until(() -> events.stream().anyMatch(e -> "turn.completed".equals(e.getString("type"))), 10);
    assertThat(events).extracting(e -> e.getString("type")).contains("turn.submitted", "call.started", "call.completed");

    JsonObject again = request(Addresses.SUBMIT, new JsonObject().put("agent", "shop").put("sessionId", "s-bus")
        .put("turn", Turn.of("t1", new ToolCall("look", null), new ToolCall("cancel", null)).toJson()));
    assertThat(again.getString("status")).isEqualTo("completed");
    assertThat(writes.get()).isEqualTo(1);
  }

  @Test
  void anApplicationsOwnPlainConsumerHearsEveryStepEventOnceItAsksSessionsToPublishAll() {
    List<String> types = new CopyOnWriteArrayList<>();
    Runnable stop = StepEvents.publishAll(vertx);
    await(vertx.eventBus().<JsonObject>consumer(Addresses.events("s-plain"), m -> types.add(m.body().getString("type")))
        .completion());
    try {
      await(ratchet.submit("shop", "s-plain", Turn.of("t1", new ToolCall("look", null), new ToolCall("cancel", null))));

      Await.until(() -> types.contains("turn.completed"), 10);
      assertThat(types).contains("turn.submitted", "call.started", "call.completed");
    } finally {
      stop.run();
    }
  }

  @Test
  void approvalsAreListedAndDecidedOnTheEventBus() {
    request(Addresses.SUBMIT, new JsonObject().put("agent", "shop").put("sessionId", "s-approve")
        .put("turn", Turn.of("t1", new ToolCall("refund", new JsonObject().put("amount", 500))).toJson()));
    Await.until(() -> !request(Addresses.PENDING, new JsonObject()).getJsonArray("approvals").isEmpty(), 10);
    JsonObject pending = request(Addresses.PENDING, new JsonObject()).getJsonArray("approvals").getJsonObject(0);
    assertThat(pending.getString("tool")).isEqualTo("refund");
    assertThat(pending.getJsonObject("arguments").getInteger("amount")).isEqualTo(500);

    ReplyException stale = refused(Addresses.DECIDE, new JsonObject().put("sessionId", "s-approve")
        .put("callId", pending.getString("callId")).put("argumentsHash", "other").put("approved", true)
        .put("approver", "mallory"));
    assertThat(stale.failureCode()).isEqualTo(409);
    assertThat(stale.getMessage()).startsWith("STALE_DECISION");
    assertThat(writes.get()).isZero();

    List<JsonObject> decided = new CopyOnWriteArrayList<>();
    await(vertx.eventBus().<JsonObject>consumer(Addresses.APPROVAL_DECIDED, m -> decided.add(m.body())).completion());
    JsonObject ok = request(Addresses.DECIDE, new JsonObject().put("sessionId", "s-approve")
        .put("callId", pending.getString("callId")).put("argumentsHash", pending.getString("argumentsHash"))
        .put("approved", true).put("approver", "alice").put("reason", "fine"));
    assertThat(ok.getString("status")).isEqualTo("accepted");
    Await.until(() -> writes.get() == 1, 10);
    assertThat(decided).containsExactly(new JsonObject().put("sessionId", "s-approve")
        .put("callId", pending.getString("callId")));
    JsonObject result = request(Addresses.RESULTS, new JsonObject().put("sessionId", "s-approve").put("turnId", "t1"));
    Await.until(() -> "completed".equals(request(Addresses.RESULTS, new JsonObject().put("sessionId", "s-approve")
        .put("turnId", "t1")).getString("status")), 10);
    assertThat(result).isNotNull();
  }

  @Test
  void malformedMessagesGetAnErrorReplyWithACodeAndTheApiKeepsWorking() {
    assertThat(refused(Addresses.SUBMIT, "not json").failureCode()).isEqualTo(400);
    assertThat(refused(Addresses.SUBMIT, 42).getMessage()).startsWith("INVALID_REQUEST");
    assertThat(refused(Addresses.SUBMIT, new JsonObject().put("agent", "shop").put("sessionId", "s")
        .put("turn", new JsonObject().put("turnId", "t").put("calls", "nope"))).getMessage()).contains("'calls'");
    // a turn of one call: an empty one is refused before its agent or session is looked at
    Turn oneCall = Turn.of("t", new ToolCall("look", null));
    assertThat(refused(Addresses.SUBMIT, new JsonObject().put("agent", "nobody").put("sessionId", "s")
        .put("turn", oneCall.toJson())).failureCode()).isEqualTo(404);
    assertThat(refused(Addresses.SUBMIT, new JsonObject().put("agent", "shop").put("sessionId", "bad {id}")
        .put("turn", oneCall.toJson())).getMessage()).contains("sessionId");
    assertThat(refused(Addresses.DECIDE, new JsonObject().put("sessionId", "s")).getMessage()).contains("callId");
    assertThat(refused(Addresses.DECIDE, new JsonObject().put("sessionId", "s").put("callId", "c")
        .put("argumentsHash", "h").put("approved", true).put("approver", "a")).failureCode()).isEqualTo(404);

    JsonObject ok = request(Addresses.SUBMIT, new JsonObject().put("agent", "shop").put("sessionId", "s-after")
        .put("turn", Turn.of("t1", new ToolCall("look", null)).toJson()));
    assertThat(ok.getString("status")).isIn("accepted", "completed");
  }
}
