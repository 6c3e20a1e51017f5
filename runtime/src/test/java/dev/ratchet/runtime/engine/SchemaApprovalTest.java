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
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An approval rule that is a JSON Schema over the arguments (rule 4): the call asks exactly when its
 * arguments match, and the approver is shown the schema as a readable condition.
 */
class SchemaApprovalTest {

  private static final JsonObject ABOVE_100 = new JsonObject(
      "{\"properties\":{\"body\":{\"properties\":{\"amount\":{\"exclusiveMinimum\":100}}}}}");

  @RegisterExtension
  final EngineHarness h = new EngineHarness();

  @Test
  void aRefundAsksOnlyWhenItsArgumentsMatchAndTheRequestSaysWhy() {
    AtomicInteger refunds = new AtomicInteger();
    FunctionToolSource source = FunctionToolSource.create("shop").tool(FunctionToolSource
        .define("refund", EffectClass.IDEMPOTENT_WRITE)
        .schema(new JsonObject("{\"type\":\"object\",\"properties\":{\"body\":{\"type\":\"object\"}}}"))
        .approval(ApprovalRule.whenMatches(ABOVE_100).withSource("agent file"))
        .handler(inv -> {
          refunds.incrementAndGet();
          return Future.succeededFuture(new JsonObject().put("ok", true));
        }));
    SessionEngine engine = h.engine(source, EngineOptions.DEFAULT);

    TurnResult small = await(engine.submit(Turn.of("t1", refund(40))));
    assertThat(small.call(0).outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(small.call(0).approval()).isNull();
    assertThat(refunds).hasValue(1);

    Future<TurnResult> large = engine.submit(Turn.of("t2", refund(250)));
    List<ApprovalRequest> pending = h.pendingFor(1);
    assertThat(pending).hasSize(1);
    assertThat(pending.get(0).askedBecause()).isEqualTo("approval required by agent file: body.amount > 100");
    assertThat(refunds).hasValue(1);
    await(engine.decide(ApprovalDecision.approve(pending.get(0), "alice", "ok")));
    assertThat(await(large).call(0).outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(refunds).hasValue(2);
  }

  @Test
  void theCommonKeywordsReadAsConditions() {
    assertThat(condition("{\"properties\":{\"amount\":{\"minimum\":10,\"maximum\":20}}}"))
        .isEqualTo("amount >= 10 and amount <= 20");
    assertThat(condition("{\"properties\":{\"currency\":{\"const\":\"EUR\"},\"country\":{\"enum\":[\"FR\",\"DE\"]}}}"))
        .isEqualTo("currency = 'EUR' and country is one of ['FR', 'DE']");
    assertThat(condition("{\"properties\":{\"to\":{\"pattern\":\"@example\\\\.com$\"}},\"required\":[\"to\"]}"))
        .isEqualTo("to matches /@example\\.com$/ and to is present");
    assertThat(condition("{\"properties\":{\"amount\":{\"exclusiveMaximum\":0.5}}}")).isEqualTo("amount < 0.5");
  }

  @Test
  void aSchemaWithoutAReadableFormIsShownAsItself() {
    String schema = "{\"anyOf\":[{\"required\":[\"a\"]},{\"required\":[\"b\"]}]}";
    assertThat(condition(schema)).isEqualTo(new JsonObject(schema).encode());
    assertThat(ApprovalRule.whenMatches(new JsonObject(schema)).reasonToAsk(new JsonObject().put("b", 1)))
        .isEqualTo("approval required by schema: " + new JsonObject(schema).encode());
    assertThat(ApprovalRule.whenMatches(new JsonObject(schema)).reasonToAsk(new JsonObject().put("c", 1))).isNull();
  }

  private static String condition(String schema) {
    return ApprovalRule.whenMatches(new JsonObject(schema)).condition();
  }

  private static ToolCall refund(double amount) {
    return new ToolCall("refund", new JsonObject().put("body", new JsonObject().put("amount", amount)));
  }
}
