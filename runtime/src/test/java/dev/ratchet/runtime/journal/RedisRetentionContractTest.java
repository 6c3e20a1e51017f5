package dev.ratchet.runtime.journal;

import java.util.List;
import dev.ratchet.runtime.testing.TestRedis;
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

  private int keysOfSession() {
    RedisJournal redis = (RedisJournal) journal;
    return await(redis.send(Request.cmd(Command.KEYS).arg(REDIS.keyPrefix() + ":{" + sessionId + "}:*"))).size();
  }

  @Test
  void erasureLeavesNoKeyOfTheSessionInRedisButTheMarkThatRefusesItsId() {
    long epoch = await(journal.claim(sessionId, "node-1").map(ClaimedSession::epoch));
    await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, new dev.ratchet.runtime.Turn("t1",
        java.util.List.of(new dev.ratchet.runtime.ToolCall("send", new io.vertx.core.json.JsonObject()))))
            .withCaller("alice")));
    assertThat(keysOfSession()).isPositive();
    assertThat(await(retention.erase(sessionId, "ops"))).isTrue();
    RedisJournal redis = (RedisJournal) journal;
    String mark = REDIS.keyPrefix() + ":{" + sessionId + "}:meta:erased";
    assertThat(await(redis.send(Request.cmd(Command.KEYS).arg(REDIS.keyPrefix() + ":{" + sessionId + "}:*")))
        .stream().map(Object::toString).toList()).containsExactly(mark);
    assertThat(await(redis.send(Request.cmd(Command.GET).arg(mark))).toString()).isEqualTo("1");
  }

  @Test
  void expiredTurnIdsCostNineBytesEachAndAForgottenSessionLeavesNoKeyInRedis() {
    long epoch = await(journal.claim(sessionId, "node-1").map(ClaimedSession::epoch));
    for (String t : java.util.List.of("t1", "t2", "t3")) {
      await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, new dev.ratchet.runtime.Turn(t,
          java.util.List.of(new dev.ratchet.runtime.ToolCall("send", new io.vertx.core.json.JsonObject()))))
              .withCaller("alice")));
      dev.ratchet.runtime.Turn turn = new dev.ratchet.runtime.Turn(t,
          java.util.List.of(new dev.ratchet.runtime.ToolCall("send", new io.vertx.core.json.JsonObject())));
      dev.ratchet.runtime.CallResult r = new dev.ratchet.runtime.CallResult(0, turn.callId(sessionId, 0), "send", null,
          dev.ratchet.runtime.EffectClass.READ, dev.ratchet.runtime.Outcome.SUCCEEDED, "ok", null, 1, false, false,
          null, 5, null);
      await(journal.callsCompleted(sessionId, epoch, t, java.util.List.of(r),
          new dev.ratchet.runtime.TurnResult(sessionId, t, java.util.List.of(r)), null, noText -> null));
    }
    long now = System.currentTimeMillis();
    dev.ratchet.runtime.retention.RetentionSweeper sweeper = new dev.ratchet.runtime.retention.RetentionSweeper(vertx,
        retention, archive, dev.ratchet.runtime.retention.RetentionOptions.DISABLED.withEnabled(true)
        .withDefaultPolicy(new dev.ratchet.runtime.retention.RetentionPolicy(null, null, java.time.Duration.ofMinutes(1)))
        .withTombstoneWindow(java.time.Duration.ofHours(1)).withForgetAfter(java.time.Duration.ofHours(1)));
    await(sweeper.check(sessionId, now + 120_000));
    await(sweeper.check(sessionId, now + 7_200_000));
    RedisJournal redis = (RedisJournal) journal;
    String expired = REDIS.keyPrefix() + ":{" + sessionId + "}:expired";
    assertThat(await(redis.send(Request.cmd(Command.STRLEN).arg(expired))).toInteger()).isEqualTo(27);
    assertThat(keysOfSession()).isEqualTo(2);

    await(sweeper.check(sessionId, now + 7_200_001));
    assertThat(keysOfSession()).isZero();
  }
}
