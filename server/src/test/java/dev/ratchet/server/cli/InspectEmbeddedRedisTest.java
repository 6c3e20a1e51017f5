package dev.ratchet.server.cli;

import dev.ratchet.runtime.journal.CallStart;
import dev.ratchet.runtime.journal.ClaimedSession;
import dev.ratchet.runtime.journal.TurnSubmission;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.journal.JournalOptions;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.embedded.EmbeddedRedis;
import dev.ratchet.embedded.RedisServerProcess;
import dev.ratchet.verticles.RatchetOptions;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code inspect} reaches the embedded Redis that {@code run} started the way {@code run} does: its socket and password file. */
class InspectEmbeddedRedisTest {

  @TempDir
  Path tmp;

  @Test
  void inspectReadsTheJournalOfTheEmbeddedRedisInTheDataDirectory() throws Exception {
    Path dir = tmp.resolve("redis");
    try (EmbeddedRedis redis = EmbeddedRedis.start(RedisServerProcess.findBinary(),
        new EmbeddedRedis.Options(dir, 0, "everysec", "normal"))) {
      InspectRun.journalCancelledOrder(RatchetOptions.create().redisUrl(redis.journalUrl()), "embedded-1");

      InspectRun printed = InspectRun.of("embedded-1", "--data-dir", dir.toString(), "--config", tmp.resolve("none.json").toString());

      assertThat(printed.code()).isZero();
      assertThat(printed.out()).contains("session embedded-1  agent shop").contains("cancel_order [non_idempotent_write]");
    }
  }

  @Test
  void withNoRuntimeRunningInspectReadsTheDataDirectorysJournalAndResumesNothing() throws Exception {
    Path dir = tmp.resolve("redis");
    Turn turn = Turn.of("t1", new ToolCall("refund_order", new JsonObject().put("order", "A-1")));
    JsonObject before;
    try (EmbeddedRedis redis = EmbeddedRedis.start(RedisServerProcess.findBinary(),
        new EmbeddedRedis.Options(dir, 0, "everysec", "normal"))) {
      // what a runtime stopped mid-call leaves: the turn accepted, its write started, no outcome
      withJournal(redis.journalUrl(), journal -> {
        long epoch = await(journal.claim("inflight-1", "node-a").map(ClaimedSession::epoch));
        await(journal.submitTurn(TurnSubmission.of("inflight-1", epoch, "shop", turn)));
        await(journal.callStarted("inflight-1", epoch, "t1", new CallStart(turn.callId("inflight-1", 0), 1,
            new JsonObject())));
      });
      before = snapshot(redis.journalUrl(), turn);
    }

    InspectRun printed = InspectRun.of("inflight-1", "--data-dir", dir.toString(), "--config",
        tmp.resolve("none.json").toString());

    assertThat(printed.code()).as(printed.err()).isZero();
    assertThat(printed.out()).contains("session inflight-1  agent shop").contains("call.started")
        .doesNotContain("call.completed").doesNotContain("session.claimed          ");
    assertThatThrownBy(() -> EmbeddedRedis.locate(dir, 0)).as("inspect stops the Redis it started")
        .hasMessageContaining("no embedded Redis is running");
    try (EmbeddedRedis redis = EmbeddedRedis.start(RedisServerProcess.findBinary(),
        new EmbeddedRedis.Options(dir, 0, "everysec", "normal"))) {
      assertThat(snapshot(redis.journalUrl(), turn)).as("nothing claimed, resumed, sent or changed").isEqualTo(before);
    }
  }

  private interface JournalUse {
    void with(RedisJournal journal) throws Exception;
  }

  private static void withJournal(String url, JournalUse use) throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      RedisJournal journal = await(RedisJournal.open(vertx, JournalOptions.of(url)));
      use.with(journal);
      await(journal.close());
    } finally {
      await(vertx.close());
    }
  }

  /** The session's meta (owner, epoch), every event of it and its call's state. */
  private static JsonObject snapshot(String url, Turn turn) throws Exception {
    JsonObject snapshot = new JsonObject();
    withJournal(url, journal -> {
      snapshot.put("meta", await(journal.queries().sessionInfo("inflight-1")));
      snapshot.put("events", new JsonArray(await(journal.queries().events("inflight-1", null, 1000))));
      var call = await(journal.callState("inflight-1", turn.callId("inflight-1", 0)));
      snapshot.put("call", new JsonObject().put("state", String.valueOf(call.state())).put("attempts", call.attempts())
          .put("done", call.isDone()));
    });
    assertThat(snapshot.getJsonObject("call").getString("state")).isEqualTo(String.valueOf(dev.ratchet.runtime.CallStatus.STARTED));
    return snapshot;
  }

  @Test
  void withNoEmbeddedRedisRunningInspectSaysWhereItLookedAndWhatToDo() {
    Path dir = tmp.resolve("redis");

    InspectRun printed = InspectRun.of("embedded-1", "--data-dir", dir.toString(), "--config", tmp.resolve("none.json").toString());

    assertThat(printed.code()).isEqualTo(1);
    assertThat(printed.err()).isEqualTo("no embedded Redis is running on " + dir
        + "; start `ratchet run` or pass --redis-url" + System.lineSeparator());
  }
}
