package dev.ratchet.verticles;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.verticles.testing.NodeFixture;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/** A {@code traceparent} header on an event-bus turn is journaled with the turn (docs/OBSERVABILITY.md). */
class EventBusTraceparentTest extends NodeFixture {

  private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  @BeforeEach
  void start() {
    FunctionToolSource tools = FunctionToolSource.create("traced")
        .read("look", "look", new JsonObject().put("type", "object"), inv -> Future.succeededFuture("seen"));
    await(ratchet.register(AgentDefinition.builder("traced").toolSource(tools).build()));
  }

  @Test
  void aTurnsTraceparentHeaderIsJournaledWithTheTurnAndAMalformedOneIsDropped() {
    submit("t1", TRACEPARENT);
    submit("t2", "00-not-a-trace-01");

    assertThat(await(ratchet.journal().submittedTurn("s-1", "t1")).traceparent()).isEqualTo(TRACEPARENT);
    assertThat(await(ratchet.journal().submittedTurn("s-1", "t2")).traceparent()).isNull();
  }

  private void submit(String turnId, String traceparent) {
    JsonObject body = new JsonObject().put("agent", "traced").put("sessionId", "s-1").put("turn", new JsonObject()
        .put("turnId", turnId).put("calls", new JsonArray().add(new JsonObject().put("name", "look")
            .put("arguments", new JsonObject()))));
    await(vertx.eventBus().request(Addresses.SUBMIT, body, new DeliveryOptions().addHeader("traceparent", traceparent)));
  }
}
