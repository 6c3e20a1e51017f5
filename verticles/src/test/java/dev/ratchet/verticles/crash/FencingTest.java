package dev.ratchet.verticles.crash;

import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.IdempotencyKey;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.journal.JournalOptions;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.runtime.testing.Await;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.UUID;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two runtime processes that both believe they own a session: the first is frozen with SIGSTOP
 * in the middle of a turn, a second one takes the session over, then the first is thawed with
 * SIGCONT. The stale one's appends are refused by the epoch check, it stops the session, and no
 * write of the turn is sent by both.
 */
class FencingTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private Provider provider;
  private final String session = "fence-" + UUID.randomUUID().toString().substring(0, 8);
  private ChildRuntime stale;
  private ChildRuntime taker;
  private final Vertx vertx = Vertx.vertx();
  private RedisJournal journal;

  @BeforeEach
  void start() throws Exception {
    provider = new Provider();
    journal = await(RedisJournal.open(vertx, JournalOptions.of(REDIS.url()).withKeyPrefix(REDIS.keyPrefix())));
  }

  @AfterEach
  void stop() throws Exception {
    if (stale != null) {
      stale.signal("CONT");
      stale.close();
    }
    if (taker != null) {
      taker.close();
    }
    provider.close();
    journal.close();
    await(vertx.close());
  }

  private String key(String turnId, int index, JsonObject args) {
    return IdempotencyKey.of(CallId.of(session, turnId, index), args).value();
  }

  private ChildRuntime runtime() throws Exception {
    return new ChildRuntime(REDIS.url(), REDIS.keyPrefix(), provider.url());
  }

  /** Freezes the first runtime mid-write, lets a second take the session over and finish the turn, thaws the first. */
  private TurnResult takeOverWhileFrozen(Turn turn, int heldIndex, JsonObject heldArgs) throws Exception {
    stale = runtime();
    stale.send(new JsonObject().put("cmd", "submit").put("session", session).put("turn", turn.toJson()));
    Await.until(() -> provider.requests(key(turn.turnId(), heldIndex, heldArgs)) == 1, 30);
    long epochBefore = await(journal.queries().currentEpoch(session));
    stale.signal("STOP");

    provider.hold = Provider.Hold.NONE;
    taker = runtime(); // registering the agent resumes the session: a new epoch
    JsonObject results = taker.awaitResult(turn.turnId(), 60);
    assertThat(await(journal.queries().currentEpoch(session))).isEqualTo(epochBefore + 1);

    provider.release(); // the frozen runtime's request gets its answer...
    stale.signal("CONT"); // ...and the runtime runs again, believing it still owns the session
    JsonObject fenced = stale.await(j -> "fenced".equals(j.getString("event")), 30);
    assertThat(fenced.getString("session")).isEqualTo(session);
    // the stale runtime answers its submission once the turn ended there: it sends nothing of it after that
    JsonObject ended = stale.await(j -> "error".equals(j.getString("event"))
        || "result".equals(j.getString("event")), 30);
    assertThat(ended.getString("event")).as(ended.encode()).isEqualTo("error");
    TurnResult journaled = await(journal.turnResult(session, turn.turnId()));
    assertThat(journaled.toJson()).isEqualTo(results);
    return journaled;
  }

  @Test
  void aFrozenOwnerThawedAfterATakeoverIsFencedAndSendsNoFurtherWrite() throws Exception {
    JsonObject pay = new JsonObject().put("amount", 10);
    JsonObject refund = new JsonObject().put("orderId", "7");
    provider.hold = Provider.Hold.AFTER_APPLY;
    provider.holdTool = "pay";
    Turn turn = new Turn("t1", List.of(new ToolCall("pay", pay), new ToolCall("refund", refund)));
    TurnResult result = takeOverWhileFrozen(turn, 0, pay);

    // the new owner did not resend the non-idempotent write it found started, and skipped the next one
    assertThat(result.calls()).extracting(CallResult::outcome).containsExactly(Outcome.OUTCOME_UNKNOWN,
        Outcome.FAILED);
    assertThat(result.call(1).skipped()).isTrue();
    // the stale owner's answer came too late to be journaled, and it did not go on to the next write
    assertThat(provider.requests(key("t1", 0, pay))).isEqualTo(1);
    assertThat(provider.requests(key("t1", 1, refund))).isZero();
    assertThat(await(journal.queries().events(session, null,
        1000))).filteredOn(e -> "call.completed".equals(e.getString("type")))
        .hasSize(2);
  }

  @Test
  void aFrozenOwnerOfAnIdempotentWriteDoesNotSendTheWritesAfterIt() throws Exception {
    JsonObject refund = new JsonObject().put("orderId", "8");
    JsonObject pay = new JsonObject().put("amount", 20);
    provider.hold = Provider.Hold.BEFORE_APPLY;
    provider.holdTool = "refund";
    Turn turn = new Turn("t1", List.of(new ToolCall("refund", refund), new ToolCall("pay", pay)));
    TurnResult result = takeOverWhileFrozen(turn, 0, refund);

    assertThat(result.calls()).extracting(CallResult::outcome).containsExactly(Outcome.SUCCEEDED, Outcome.SUCCEEDED);
    // the idempotent write went out from both owners, with the one key, and took effect once
    assertThat(provider.requests.keySet()).containsExactlyInAnyOrder(key("t1", 0, refund), key("t1", 1, pay));
    assertThat(provider.applied("refund")).isEqualTo(1);
    // the non-idempotent write after it was sent by the new owner only
    assertThat(provider.requests(key("t1", 1, pay))).isEqualTo(1);
    JsonArray completions = new JsonArray(await(journal.queries().events(session, null, 1000)).stream()
        .filter(e -> "call.completed".equals(e.getString("type"))).toList());
    assertThat(completions).hasSize(2);
  }
}
