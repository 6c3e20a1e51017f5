package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.journal.JournalOptions;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.runtime.testing.Recorder;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import static dev.ratchet.runtime.testing.Await.await;
import static dev.ratchet.runtime.testing.Await.failure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A journal step whose answer is lost on the way back: Redis applied it, the runtime never heard.
 * A real proxy between the runtime and Redis swallows one answer and cuts the connection.
 */
class LostAnswerTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private final Vertx vertx = Vertx.vertx();
  private final AtomicBoolean loseNextAnswer = new AtomicBoolean();

  @AfterEach
  void close() {
    await(vertx.close());
  }

  /** Forwards to the test's Redis; when told to, swallows the next answer and closes the client's connection. */
  private int proxy() {
    URI redis = URI.create(REDIS.url());
    NetServer server = vertx.createNetServer().connectHandler(client -> {
      client.pause();
      vertx.createNetClient().connect(redis.getPort(), redis.getHost()).onSuccess(upstream -> {
        client.handler(upstream::write);
        upstream.handler(answer -> {
          if (loseNextAnswer.compareAndSet(true, false)) {
            client.close();
            upstream.close();
            return;
          }
          client.write(answer);
        });
        client.closeHandler(v -> upstream.close());
        upstream.closeHandler(v -> client.close());
        client.resume();
      }).onFailure(err -> client.close());
    });
    return await(server.listen(0, "127.0.0.1")).actualPort();
  }

  @Test
  void aSubmissionWhoseAnswerWasLostRunsItsFirstWriteOnceWhenSubmittedAgain() {
    int port = proxy();
    RedisJournal journal = await(RedisJournal.open(vertx, JournalOptions.of("redis://127.0.0.1:" + port)
        .withKeyPrefix(REDIS.keyPrefix())));
    Recorder provider = new Recorder();
    FunctionToolSource tools = FunctionToolSource.create("t").tool(FunctionToolSource
        .define("charge", EffectClass.NON_IDEMPOTENT_WRITE).handler(inv -> {
          provider.record("charge", inv);
          return Future.succeededFuture(new JsonObject().put("charged", true));
        }));
    ToolCatalog catalog = await(ToolCatalog.resolve(vertx, AgentDefinition.builder("lost").toolSource(tools).build()));
    String sessionId = "s-" + UUID.randomUUID();
    SessionEngine engine = new SessionEngine(vertx, journal, sessionId, catalog, EngineOptions.DEFAULT, null);
    await(engine.start("node-1"));
    Turn first = new Turn("t1", List.of(new ToolCall("charge", new JsonObject().put("amount", 1))));
    assertThat(await(engine.submit(first)).calls()).extracting(CallResult::outcome).containsExactly(Outcome.SUCCEEDED);

    // the turn and its write's "started" step land in one script; the answer never comes back
    Turn second = new Turn("t2", List.of(new ToolCall("charge", new JsonObject().put("amount", 2))));
    loseNextAnswer.set(true);
    Throwable lost = failure(engine.submit(second));
    assertThat(((RatchetException) lost).code()).isEqualTo("JOURNAL_UNAVAILABLE");
    assertThat(await(journal.callState(sessionId, second.callId(sessionId, 0))).wasStarted())
        .as("the step landed although its answer was lost").isTrue();
    assertThat(provider.count("charge")).isEqualTo(1);

    // the caller submits the same turn again: the write was never sent, so it runs now, once
    TurnResult result = await(engine.submit(second));
    assertThat(result.calls()).extracting(CallResult::outcome).containsExactly(Outcome.SUCCEEDED);
    assertThat(provider.count("charge")).isEqualTo(2);
    assertThat(await(engine.submit(second))).isEqualTo(result);
    assertThat(provider.count("charge")).isEqualTo(2);
  }
}
