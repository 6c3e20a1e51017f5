package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/** The retention TCK against real Redis, and what Redis adds: removed and erased keys are gone from Redis. */
class RedisRetentionContractTest extends RetentionContract {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  @Override
  protected SessionJournal open(Vertx vertx) {
    return await(RedisJournal.open(vertx, JournalOptions.of(REDIS.url()).withKeyPrefix(REDIS.keyPrefix())));
  }

  private int keysOfSession() {
    RedisJournal redis = (RedisJournal) journal;
    return await(redis.send(Request.cmd(Command.KEYS).arg(REDIS.keyPrefix() + ":{" + sessionId + "}:*"))).size();
  }

  @Test
  void erasureLeavesNoKeyOfTheSessionInRedis() {
    long epoch = await(journal.claim(sessionId, "node-1"));
    await(journal.submitTurn(sessionId, epoch, AGENT, "alice", new dev.ratchet.runtime.Turn("t1",
        java.util.List.of(new dev.ratchet.runtime.ToolCall("send", new io.vertx.core.json.JsonObject())))));
    assertThat(keysOfSession()).isPositive();
    assertThat(await(retention.erase(sessionId, "ops"))).isTrue();
    assertThat(keysOfSession()).isZero();
  }
}
