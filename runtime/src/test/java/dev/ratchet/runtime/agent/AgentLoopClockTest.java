package dev.ratchet.runtime.agent;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.MovableClock;
import dev.ratchet.runtime.RetryPolicy;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.engine.EngineOptions;
import dev.ratchet.runtime.engine.SessionEngine;
import dev.ratchet.runtime.journal.InMemoryJournal;
import dev.ratchet.runtime.journal.SessionJournal;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/** The agent loop waits on its engine's clock: a model time-out and the back-off before the model is asked again. */
class AgentLoopClockTest {

  private static final Instant START = Instant.parse("2026-03-02T09:00:00Z");

  private final Vertx vertx = Vertx.vertx();
  private final MovableClock clock = MovableClock.startingAt(vertx, START);
  private final SessionJournal journal = InMemoryJournal.create(vertx, clock);
  private final List<JsonObject> events = new CopyOnWriteArrayList<>();

  @AfterEach
  void close() {
    journal.close();
    await(vertx.close());
  }

  @Test
  void aModelThatDoesNotAnswerTimesOutOnTheClockAndIsAskedAgainAfterItsBackOff() {
    AtomicInteger asked = new AtomicInteger();
    ChatModel model = request -> asked.incrementAndGet() == 1 ? Promise.<ModelResponse>promise().future()
        : Future.succeededFuture(ModelResponse.text("done"));
    AgentDefinition agent = AgentDefinition.builder("clock-agent").toolSource(FunctionToolSource.create("none"))
        .model(model).modelTimeout(Duration.ofSeconds(30))
        .modelRetry(new RetryPolicy(2, Duration.ofMinutes(1), Duration.ofMinutes(1), 1.0)).build();
    ToolCatalog catalog = await(ToolCatalog.resolve(vertx, agent));
    Context ctx = vertx.getOrCreateContext();
    Promise<AgentLoop> started = Promise.promise();
    ctx.runOnContext(v -> {
      SessionEngine engine = new SessionEngine(vertx, journal, "clock-loop", catalog, EngineOptions.DEFAULT,
          events::add, clock);
      AgentLoop loop = new AgentLoop(vertx, journal, engine, agent, catalog, events::add);
      engine.start("node-1").compose(x -> loop.start()).map(loop).onComplete(started);
    });
    AgentLoop loop = await(started.future());

    Future<AgentReply> reply = await(loop.accept(null, "hello")).result();
    await(clock.whenPending(1));
    await(clock.advance(Duration.ofSeconds(30).minusMillis(1)));
    assertThat(events).noneMatch(e -> EventType.MODEL_ATTEMPT_FAILED.wireName().equals(e.getString("type")));

    await(clock.advance(Duration.ofMillis(1)));
    await(clock.whenPending(1));
    JsonObject failed = events.stream().filter(e -> EventType.MODEL_ATTEMPT_FAILED.wireName()
        .equals(e.getString("type"))).findFirst().orElseThrow();
    assertThat(failed.getJsonObject("data").getString("error")).contains("did not answer within 30000 ms");
    assertThat(failed.getLong("at")).isEqualTo(START.plusSeconds(30).toEpochMilli());
    long backOff = failed.getJsonObject("data").getLong("retryInMs");
    assertThat(backOff).isBetween(30_000L, 60_000L);

    await(clock.advance(Duration.ofMillis(backOff - 1)));
    assertThat(asked).hasValue(1);
    await(clock.advance(Duration.ofMillis(1)));
    assertThat(asked).hasValue(2);
    assertThat(await(reply).text()).isEqualTo("done");
  }
}
