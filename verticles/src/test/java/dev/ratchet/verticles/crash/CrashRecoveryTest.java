package dev.ratchet.verticles.crash;

import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.IdempotencyKey;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
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
 * Crash tests: a runtime in a child JVM is killed with SIGKILL at controlled points and a new one
 * is started on the same Redis, while a provider on loopback counts what was actually sent.
 */
class CrashRecoveryTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private Provider provider;
  private final String session = "crash-" + UUID.randomUUID().toString().substring(0, 8);
  private ChildRuntime child;

  @BeforeEach
  void start() throws Exception {
    provider = new Provider();
    child = new ChildRuntime(REDIS.url(), REDIS.keyPrefix(), provider.url());
  }

  @AfterEach
  void stop() throws Exception {
    child.close();
    provider.close();
  }

  private void submit(Turn turn) throws Exception {
    child.send(new JsonObject().put("cmd", "submit").put("session", session).put("turn", turn.toJson()));
  }

  private void restart() throws Exception {
    child.kill();
    provider.hold = Provider.Hold.NONE;
    child = new ChildRuntime(REDIS.url(), REDIS.keyPrefix(), provider.url());
  }

  /** Runs a turn of one call until the provider got it, held as given; the call's outcome once another runtime resumed it. */
  private String outcomeAfterACrash(Provider.Hold hold, String tool, JsonObject args) throws Exception {
    provider.hold = hold;
    submit(Turn.of("t1", new ToolCall(tool, args)));
    Await.until(() -> provider.requests(key("t1", 0, args)) == 1, 30);
    restart();
    JsonObject results = child.awaitResult("t1", 60);
    return call(results.getJsonArray("results"), 0).getString("outcome");
  }

  private String key(String turnId, int index, JsonObject args) {
    return IdempotencyKey.of(CallId.of(session, turnId, index), args).value();
  }

  private static JsonObject call(JsonArray results, int index) {
    return results.getJsonObject(index);
  }

  @Test
  void aNonIdempotentWriteWhoseStartWasJournaledIsNeverResentAndEndsOutcomeUnknown() throws Exception {
    JsonObject args = new JsonObject().put("amount", 10);
    assertThat(outcomeAfterACrash(Provider.Hold.AFTER_APPLY, "pay", args)).isEqualTo("outcome_unknown");
    assertThat(provider.requests(key("t1", 0, args))).isEqualTo(1);
  }

  @Test
  void anIdempotentWriteThatLandedIsFoundByLookupAfterACrashAndNotResent() throws Exception {
    JsonObject args = new JsonObject().put("orderId", "1002");
    assertThat(outcomeAfterACrash(Provider.Hold.AFTER_APPLY, "refund", args)).isEqualTo("succeeded");
    String key = key("t1", 0, args);
    assertThat(provider.lookups.get(key).get()).isEqualTo(1);
    assertThat(provider.requests(key)).isEqualTo(1);
  }

  @Test
  void anIdempotentWriteThatDidNotLandIsResentWithTheSameKeyAfterACrash() throws Exception {
    JsonObject args = new JsonObject().put("orderId", "1003");
    assertThat(outcomeAfterACrash(Provider.Hold.BEFORE_APPLY, "refund", args)).isEqualTo("succeeded");
    String key = key("t1", 0, args);
    assertThat(provider.requests.keySet()).containsExactly(key);
    assertThat(provider.requests(key)).isEqualTo(2);
    assertThat(provider.applied(key.isEmpty() ? "" : "refund")).isEqualTo(1);
  }

  @Test
  void completedCallsOfAnInterruptedTurnAreNotRunAgain() throws Exception {
    JsonObject read = new JsonObject().put("orderId", "1");
    JsonObject refund = new JsonObject().put("orderId", "1").put("amount", 5);
    JsonObject pay = new JsonObject().put("amount", 7);
    provider.hold = Provider.Hold.AFTER_APPLY;
    provider.holdTool = "pay";
    submit(new Turn("t1", List.of(new ToolCall("read_order", read), new ToolCall("refund", refund),
        new ToolCall("pay", pay))));
    Await.until(() -> provider.requests(key("t1", 2, pay)) == 1 && provider.applied("read_order") == 1, 30);
    restart();
    JsonArray results = child.awaitResult("t1", 60).getJsonArray("results");
    assertThat(call(results, 0).getString("outcome")).isEqualTo("succeeded");
    assertThat(call(results, 1).getString("outcome")).isEqualTo("succeeded");
    assertThat(call(results, 2).getString("outcome")).isEqualTo("outcome_unknown");
    assertThat(provider.applied("read_order")).isEqualTo(1);
    assertThat(provider.requests(key("t1", 1, refund))).isEqualTo(1);
    assertThat(provider.lookups).doesNotContainKey(key("t1", 1, refund));
    assertThat(provider.requests(key("t1", 2, pay))).isEqualTo(1);
  }

  @Test
  void aPendingApprovalIsStillPendingAfterARestartAndCanBeApproved() throws Exception {
    JsonObject args = new JsonObject().put("note", "refund approved by phone");
    submit(Turn.of("t1", new ToolCall("approve_me", args)));
    Vertx vertx = Vertx.vertx();
    try {
      RedisJournal journal = await(RedisJournal.open(vertx, JournalOptions.of(REDIS.url())
          .withKeyPrefix(REDIS.keyPrefix())));
      Await.until(() -> !pendingOf(journal).isEmpty(), 30);
      restart();
      List<ApprovalRequest> pending = pendingOf(journal);
      assertThat(pending).hasSize(1);
      ApprovalRequest request = pending.get(0);
      assertThat(provider.requests.values()).isEmpty();
      child.send(new JsonObject().put("cmd", "approve").put("session", session)
          .put("callId", request.callId().value()).put("hash", request.argumentsHash()));
      JsonArray results = child.awaitResult("t1", 60).getJsonArray("results");
      assertThat(call(results, 0).getString("outcome")).isEqualTo("succeeded");
      assertThat(call(results, 0).getJsonObject("approval").getString("approver")).isEqualTo("tester");
      assertThat(provider.requests(key("t1", 0, args))).isEqualTo(1);
      journal.close();
    } finally {
      await(vertx.close());
    }
  }

  private List<ApprovalRequest> pendingOf(RedisJournal journal) {
    return await(journal.queries().pendingApprovals(1000)).stream().filter(r -> r.sessionId().equals(session)).toList();
  }

  @Test
  void aTurnResubmittedAfterARestartIsNotExecutedAgain() throws Exception {
    JsonObject args = new JsonObject().put("amount", 3);
    Turn turn = Turn.of("t1", new ToolCall("pay", args));
    submit(turn);
    JsonObject first = child.awaitResult("t1", 60);
    restart();
    submit(turn);
    JsonObject second = child.awaitResult("t1", 60);
    assertThat(second).isEqualTo(first);
    assertThat(provider.requests(key("t1", 0, args))).isEqualTo(1);
  }
}
