package dev.ratchet.verticles;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.ToolSource;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.testing.Await;
import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.verticles.testing.NodeFixture;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.ratchet.runtime.testing.Await.await;
import static dev.ratchet.runtime.testing.Await.failure;
import static org.assertj.core.api.Assertions.assertThat;

/** Replacing an agent's definition at run time: new turns see it, validated turns keep theirs, on real Redis. */
class AgentUpdateTest extends NodeFixture {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private final AtomicInteger oldRefunds = new AtomicInteger();
  private final AtomicInteger newRefunds = new AtomicInteger();

  /** Version 1: refund takes an integer amount and asks a person first. */
  private AgentDefinition first() {
    JsonObject schema = new JsonObject().put("type", "object").put("required", new JsonArray().add("amount"))
        .put("properties", new JsonObject().put("amount", new JsonObject().put("type", "integer")));
    return AgentDefinition.builder("shop").toolSource(FunctionToolSource.create("shop")
        .tool(FunctionToolSource.define("refund", EffectClass.NON_IDEMPOTENT_WRITE).schema(schema)
            .approval(ApprovalRule.always()).handler(inv -> {
              oldRefunds.incrementAndGet();
              return Future.succeededFuture("refunded " + inv.arguments().getInteger("amount"));
            }))).build();
  }

  /** Version 2: refund takes an order id instead, and a new read, ship_status, appears. */
  private AgentDefinition second() {
    JsonObject schema = new JsonObject().put("type", "object").put("required", new JsonArray().add("orderId"))
        .put("additionalProperties", false)
        .put("properties", new JsonObject().put("orderId", new JsonObject().put("type", "string")));
    return AgentDefinition.builder("shop").toolSource(FunctionToolSource.create("shop")
        .tool(FunctionToolSource.define("refund", EffectClass.NON_IDEMPOTENT_WRITE).schema(schema)
            .handler(inv -> {
              newRefunds.incrementAndGet();
              return Future.succeededFuture("refunded order " + inv.arguments().getString("orderId"));
            }))
        .read("ship_status", "where an order is", new JsonObject().put("type", "object"),
            inv -> Future.succeededFuture("shipped"))).build();
  }

  private static ToolSource failing() {
    return new ToolSource() {
      @Override
      public String name() {
        return "broken";
      }

      @Override
      public Future<List<Tool>> tools(Vertx vertx) {
        return Future.failedFuture("the server is not reachable");
      }
    };
  }

  private JsonObject submittedSpec(String sessionId, String turnId) {
    return await(ratchet.journal().events(sessionId, null, 100)).stream()
        .filter(e -> "turn.submitted".equals(e.getString("type")) && turnId.equals(e.getString("turn")))
        .findFirst().orElseThrow().getJsonObject("data");
  }

  @Test
  void aTurnWaitingForApprovalFinishesWithTheDefinitionItWasValidatedAgainstWhileNewTurnsSeeTheNewOne() {
    String v1 = await(ratchet.register(first())).version();
    Future<TurnResult> waiting = ratchet.submit("shop", "s-update", Turn.of("t1",
        new ToolCall("refund", new JsonObject().put("amount", 40))));
    Await.until(() -> !await(ratchet.pendingApprovals()).isEmpty(), 10);

    ToolCatalog updated = await(ratchet.update(second()));
    assertThat(updated.version()).isNotEqualTo(v1);
    assertThat(ratchet.queries().catalog("shop").version()).isEqualTo(updated.version());
    assertThat(ratchet.queries().catalog("shop").get("ship_status")).isNotNull();

    // another session: this one's writes queue behind the refund that waits (rule 3)
    TurnResult next = await(ratchet.submit("shop", "s-update-2", Turn.of("t2",
        new ToolCall("ship_status", new JsonObject()),
        new ToolCall("refund", new JsonObject().put("amount", 40)))));
    assertThat(next.call(0).result()).isEqualTo("shipped");
    assertThat(next.call(1).outcome().wireName()).isEqualTo("failed");
    assertThat(next.call(1).error()).contains("orderId");

    ApprovalRequest pending = await(ratchet.pendingApprovals()).get(0);
    await(ratchet.decide(ApprovalDecision.approve(pending, "alice", "ok")));
    TurnResult first = await(waiting);
    assertThat(first.call(0).result()).isEqualTo("refunded 40");
    assertThat(oldRefunds.get()).isEqualTo(1);
    assertThat(newRefunds.get()).isZero();

    assertThat(submittedSpec("s-update", "t1").getString("catalogue")).isEqualTo(v1);
    assertThat(submittedSpec("s-update-2", "t2").getString("catalogue")).isEqualTo(updated.version());
  }

  @Test
  void theSameTurnSubmittedAgainAfterAnUpdateIsTheSameTurnAndRunsOnce() {
    await(ratchet.register(second()));
    Turn turn = Turn.of("t1", new ToolCall("refund", new JsonObject().put("orderId", "A-1")));
    TurnResult once = await(ratchet.submit("shop", "s-same", turn));
    AgentDefinition withPolicy = AgentDefinition.builder("shop").toolSource(second().toolSources().get(0))
        .askForOpenWorldTools(true).systemPrompt("new").build();
    await(ratchet.update(withPolicy));
    TurnResult again = await(ratchet.submit("shop", "s-same", turn));
    assertThat(again.toJson()).isEqualTo(once.toJson());
    assertThat(newRefunds.get()).isEqualTo(1);
  }

  @Test
  void aDefinitionThatCannotBeResolvedChangesNothing() {
    String v1 = await(ratchet.register(first())).version();
    Throwable refused = failure(ratchet.update(AgentDefinition.builder("shop").toolSource(failing()).build()));
    assertThat(refused).isInstanceOf(RatchetException.class).hasMessageContaining("the server is not reachable");
    assertThat(ratchet.queries().catalog("shop").version()).isEqualTo(v1);

    Throwable both = failure(ratchet.define(List.of(second(),
        AgentDefinition.builder("other").toolSource(failing()).build())));
    assertThat(both).hasMessageContaining("'broken'");
    assertThat(ratchet.queries().catalog("shop").version()).isEqualTo(v1);
    assertThat(ratchet.queries().agents()).containsExactly("shop");
  }

  @Test
  void definingSeveralAgentsRegistersTheNewOnesAndReplacesTheKnownOnes() {
    String v1 = await(ratchet.register(first())).version();
    AgentDefinition other = AgentDefinition.builder("other").toolSource(FunctionToolSource.create("o")
        .read("ping", "ping", new JsonObject().put("type", "object"), inv -> Future.succeededFuture("pong"))).build();
    List<ToolCatalog> catalogs = await(ratchet.define(List.of(second(), other)));
    assertThat(catalogs).extracting(ToolCatalog::agent).containsExactly("shop", "other");
    assertThat(ratchet.queries().catalog("shop").version()).isNotEqualTo(v1);
    assertThat(await(ratchet.submit("other", "s-other", Turn.of("t1", new ToolCall("ping", null)))).call(0).result())
        .isEqualTo("pong");
    assertThat(failure(ratchet.define(List.of(other, other)))).hasMessageContaining("defined twice");
  }
}
