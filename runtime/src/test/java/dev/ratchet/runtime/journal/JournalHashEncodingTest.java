package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.embedded.RedisServerProcess;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/** The Redis that Ratchet starts keeps a call's hash in its compact encoding. */
class JournalHashEncodingTest {

  @Test
  void aCallsRecordOfHundredsOfBytesStaysInTheCompactEncodingOnTheRedisRatchetStarts(@TempDir Path dir)
      throws Exception {
    try (RedisServerProcess redis = RedisServerProcess.start(0, dir, "everysec")) {
      Vertx vertx = Vertx.vertx();
      try {
        RedisJournal journal = await(RedisJournal.open(vertx, JournalOptions.of(redis.url())));
        long epoch = await(journal.claim("s1", "node-1").map(ClaimedSession::epoch));
        Turn turn = new Turn("t1", List.of(new ToolCall("look", null)));
        await(journal.submitTurn(TurnSubmission.of("s1", epoch, "agent", turn)));
        CallResult record = new CallResult(0, turn.callId("s1", 0), "look", null, EffectClass.READ,
            Outcome.SUCCEEDED, new JsonObject().put("order", "x".repeat(400)), null, 1, false, false, null, 3, null);
        await(journal.callsCompleted("s1", epoch, "t1", List.of(record), new TurnResult("s1", "t1",
            List.of(record)), null, noText -> null));

        String key = new JournalKeys(JournalOptions.of(redis.url()).keyPrefix()).call("s1", record.callId().value());
        assertThat(await(journal.send(Request.cmd(Command.HSTRLEN).arg(key).arg("record"))).toInteger())
            .isGreaterThan(400);
        // "ziplist" on Redis 6.2
        assertThat(await(journal.send(Request.cmd(Command.OBJECT).arg("ENCODING").arg(key))).toString())
            .isIn("listpack", "ziplist");
        await(journal.close());
      } finally {
        await(vertx.close());
      }
    }
  }
}
