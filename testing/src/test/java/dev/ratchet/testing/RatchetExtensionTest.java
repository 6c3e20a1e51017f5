package dev.ratchet.testing;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.verticles.RatchetNode;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The extension used as an application's tests use it: its own agent, turns submitted, results read. */
class RatchetExtensionTest {

  private static final AtomicInteger CANCELLATIONS = new AtomicInteger();

  @RegisterExtension
  static final RatchetExtension RATCHET = RatchetExtension.create().agent(ordersAgent());

  private static AgentDefinition ordersAgent() {
    FunctionToolSource orders = FunctionToolSource.create("orders")
        .read("lookup", "finds an order", new JsonObject().put("type", "object"),
            inv -> Future.succeededFuture(new JsonObject().put("order", inv.arguments().getString("id"))
                .put("status", "open")))
        .tool(FunctionToolSource.define("cancel", EffectClass.NON_IDEMPOTENT_WRITE).handler(inv -> {
          CANCELLATIONS.incrementAndGet();
          return Future.succeededFuture("cancelled " + inv.arguments().getString("id"));
        }));
    return AgentDefinition.builder("orders").toolSource(orders).build();
  }

  @Test
  void anApplicationsAgentRunsItsTurnsOnTheExtensionsRatchet() throws Exception {
    Turn turn = Turn.of("t1", new ToolCall("lookup", new JsonObject().put("id", "A-17")),
        new ToolCall("cancel", new JsonObject().put("id", "A-17")));

    TurnResult result = await(RATCHET.ratchet().submit("orders", "s-cancel", turn));

    assertThat(result.call(0).outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(result.call(0).result().toString()).contains("A-17").contains("open");
    assertThat(result.call(1).outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(result.call(1).result()).isEqualTo("cancelled A-17");

    TurnResult again = await(RATCHET.ratchet().submit("orders", "s-cancel", turn));
    assertThat(again.toJson()).isEqualTo(result.toJson());
    assertThat(CANCELLATIONS.get()).as("the write ran once").isEqualTo(1);
  }

  @Test
  void theJournalIsInTheExtensionsRedisUnderTheClassesOwnPrefix() throws Exception {
    await(RATCHET.ratchet().submit("orders", "s-journal",
        Turn.of("t1", new ToolCall("lookup", new JsonObject().put("id", "B-2")))));

    Redis redis = Redis.createClient(RATCHET.vertx(), RATCHET.redisUrl());
    try {
      String keys = await(redis.send(Request.cmd(Command.KEYS).arg(RATCHET.keyPrefix() + "*s-journal*"))).toString();
      assertThat(keys).contains("s-journal");
    } finally {
      redis.close();
    }
  }

  @Test
  void testMethodsMayTakeTheRatchetAndItsVertx(RatchetNode ratchet, Vertx vertx, RatchetExtension extension) {
    assertThat(ratchet).isSameAs(RATCHET.ratchet());
    assertThat(vertx).isSameAs(RATCHET.vertx());
    assertThat(extension).isSameAs(RATCHET);
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }
}
