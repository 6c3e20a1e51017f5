package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.journal.JournalOptions;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.lang.ref.WeakReference;
import java.util.List;
import java.util.UUID;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A session between turns holds none of its completed turns: thousands of idle sessions would
 * otherwise each keep their last turn, and the JVM copy it at every young collection.
 */
class IdleSessionHeapTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    await(vertx.close());
  }

  @Test
  void aSessionBetweenTurnsLetsGoOfItsLastTurnsWritesAndResults() throws InterruptedException {
    RedisJournal journal = await(RedisJournal.open(vertx, JournalOptions.of(REDIS.url()).withKeyPrefix(REDIS.keyPrefix())));
    WeakReference<?>[] lastResult = new WeakReference<?>[1];
    FunctionToolSource tools = FunctionToolSource.create("t")
        .read("look", "look", new JsonObject().put("type", "object"), inv -> Future.succeededFuture("found"))
        .tool(FunctionToolSource.define("refund", EffectClass.NON_IDEMPOTENT_WRITE).handler(inv -> {
          JsonObject result = new JsonObject().put("refunded", inv.arguments().getInteger("amount"));
          lastResult[0] = new WeakReference<>(result);
          return Future.succeededFuture(result);
        }));
    ToolCatalog catalog = await(ToolCatalog.resolve(vertx, AgentDefinition.builder("idle").toolSource(tools).build()));
    SessionEngine engine = new SessionEngine(vertx, journal, "s-" + UUID.randomUUID(), catalog,
        EngineOptions.DEFAULT, null);
    await(engine.start("node-1"));

    TurnResult done = await(engine.submit(new Turn("t1", List.of(new ToolCall("look", null),
        new ToolCall("refund", new JsonObject().put("amount", 5))))));
    assertThat(done.calls()).extracting(c -> c.outcome()).containsExactly(Outcome.SUCCEEDED, Outcome.SUCCEEDED);
    done = null;

    for (int i = 0; i < 20 && lastResult[0].get() != null; i++) {
      System.gc();
      Thread.sleep(50);
    }
    assertThat(lastResult[0].get()).as("the last write's result, held by the idle session").isNull();
    await(journal.close());
  }
}
