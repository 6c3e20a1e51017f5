package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;

import static dev.ratchet.runtime.testing.Await.await;
import static dev.ratchet.runtime.testing.Await.failure;
import static org.assertj.core.api.Assertions.assertThat;

/** The journal TCK against real Redis, and what the Redis journal adds: its layout, its scripts, its connections. */
class RedisJournalContractTest extends SessionJournalContract {

  @RegisterExtension
  // its own server: one test flushes the script cache, which a shared server's other users should not see
  static final TestRedis REDIS = TestRedis.withOwnServer();

  /** The results of the turn (as {@code turnId} "t1") whose calls all succeeded, each with its value. */
  private TurnResult succeeded(Turn t, Object... values) {
    List<CallResult> records = new ArrayList<>();
    for (int i = 0; i < values.length; i++) {
      records.add(record(t, i, Outcome.SUCCEEDED, values[i], null));
    }
    return new TurnResult(sessionId, "t1", records);
  }

  private RedisJournal redis() {
    return (RedisJournal) journal;
  }

  @Test
  void aBurstOfStepsFromOneEventLoopBeyondWhatOneConnectionHoldsIsServedNotRefused() {
    // one connection may hold 1,000 commands in flight; 1,500 sessions claimed at once need more
    RedisJournal small = await(RedisJournal.open(vertx,
        new JournalOptions(REDIS.url(), REDIS.keyPrefix(), 4, 1_000)));
    try {
      List<io.vertx.core.Future<ClaimedSession>> claims = new ArrayList<>();
      io.vertx.core.Promise<Void> sent = io.vertx.core.Promise.promise();
      vertx.getOrCreateContext().runOnContext(v -> {
        for (int i = 0; i < 1_500; i++) {
          claims.add(small.claim(sessionId + "-" + i, "node-1"));
        }
        sent.complete();
      });
      await(sent.future());
      await(io.vertx.core.Future.all(claims));
      assertThat(claims).allMatch(c -> c.result().epoch() == 1);
    } finally {
      small.close();
    }
  }

  @Test
  void aNewJournalIsMarkedWithTheLayoutItWrites() {
    String prefix = REDIS.keyPrefix() + "-new";
    RedisJournal opened = await(RedisJournal.open(vertx, JournalOptions.of(REDIS.url()).withKeyPrefix(prefix)));
    opened.close();
    assertThat(await(redis().send(Request.cmd(Command.GET).arg(prefix + ":layout"))).toString()).isEqualTo("1");
  }

  @Test
  void aJournalWithSessionsButNoLayoutMarkIsReadAsTheLayoutItWasWrittenWith() {
    submitted(turn("t1", "a"));
    await(redis().send(Request.cmd(Command.DEL).arg(REDIS.keyPrefix() + ":layout")));

    RedisJournal reopened = await(RedisJournal.open(vertx, JournalOptions.of(REDIS.url()).withKeyPrefix(REDIS.keyPrefix())));
    try {
      assertThat(await(reopened.inflightTurns(sessionId))).hasSize(1);
    } finally {
      reopened.close();
    }
    assertThat(await(redis().send(Request.cmd(Command.GET).arg(REDIS.keyPrefix() + ":layout"))).toString()).isEqualTo("1");
  }

  @Test
  void aJournalOfAnotherLayoutIsRefusedWithAClearErrorAndLeftAsItIs() {
    String prefix = REDIS.keyPrefix() + "-other";
    await(redis().send(Request.cmd(Command.SET).arg(prefix + ":layout").arg("2")));
    Throwable err = failure(RedisJournal.open(vertx, JournalOptions.of(REDIS.url()).withKeyPrefix(prefix)));
    assertThat(((RatchetException) err).code()).isEqualTo("JOURNAL_LAYOUT");
    assertThat(err.getMessage()).contains("this journal was written by layout 2; this Ratchet reads layout 1");
    assertThat(await(redis().send(Request.cmd(Command.GET).arg(prefix + ":layout"))).toString()).isEqualTo("2");
  }

  @Test
  void aFlushedScriptCacheFallsBackToEval() {
    long epoch = await(journal.claim(sessionId, "node-1").map(ClaimedSession::epoch));
    await(redis().send(Request.cmd(Command.SCRIPT).arg("FLUSH")));
    Turn t = turn("t1", "a");
    assertThat(await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT,
        t))).status()).isEqualTo(SubmitAnswer.Status.NEW);
    assertThat(await(journal.claim(sessionId, "node-2").map(ClaimedSession::epoch))).isEqualTo(epoch + 1);
    // fencing still holds through the fallback
    assertThat(code(journal.callStarted(sessionId, epoch, "t1", new CallStart(t.callId(sessionId, 0), 1,
        new JsonObject()))))
        .isEqualTo("FENCED");
  }

  @Test
  void everyKeyOfASessionIsHashTaggedWithItsId() {
    Turn t = turn("t1", "a", "b");
    long epoch = submitted(t);
    await(journal.callStarted(sessionId, epoch, "t1", new CallStart(t.callId(sessionId, 0), 1, new JsonObject())));
    await(journal.approvalRequested(epoch, approvalRequest(t, 1)));

    String prefix = REDIS.keyPrefix();
    List<String> keys = new ArrayList<>();
    String cursor = "0";
    do {
      Response r = await(redis().send(Request.cmd(Command.SCAN).arg(cursor).arg("MATCH").arg(prefix + ":*")
          .arg("COUNT").arg(1000)));
      cursor = r.get(0).toString();
      r.get(1).forEach(k -> keys.add(k.toString()));
    } while (!"0".equals(cursor));

    List<String> global = List.of(prefix + ":active", prefix + ":approvals", prefix + ":sessions", prefix + ":layout");
    List<String> mine = keys.stream().filter(k -> !global.contains(k) && k.contains(sessionId)).toList();
    assertThat(mine).hasSizeGreaterThanOrEqualTo(5);
    assertThat(mine).allSatisfy(k -> assertThat(k).startsWith(prefix + ":{" + sessionId + "}:"));
    assertThat(keys).filteredOn(k -> !global.contains(k))
        .allSatisfy(k -> assertThat(k).matches("\\Q" + prefix + "\\E:\\{[^}]+\\}:.+"));
  }

  @Test
  void aStepsEventsAreOneStreamEntry() {
    fourSteps();
    // four steps after the claim, one entry each
    Response entries = await(redis().send(Request.cmd(Command.XLEN)
        .arg(new JournalKeys(REDIS.keyPrefix()).events(sessionId))));
    assertThat(entries.toInteger()).isEqualTo(4);
  }

  @Test
  void theStreamHoldsNeitherACallsRecordNorATurnsSpecWhichTheirHashesHold() {
    long epoch = await(journal.claim(sessionId, "node-1").map(ClaimedSession::epoch));
    String text = "a long message for the channel ".repeat(40);
    Turn t = new Turn("t1", List.of(new ToolCall("post", new JsonObject().put("text", text)), new ToolCall("look",
        new JsonObject())));
    await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, t)));
    CallResult unknown = record(t, 0, Outcome.OUTCOME_UNKNOWN, null, "the provider timed out at step seven");
    await(journal.callsCompleted(sessionId, epoch, "t1", List.of(unknown), null, null, noText -> null));

    Response stream = await(redis().send(Request.cmd(Command.XRANGE)
        .arg(new JournalKeys(REDIS.keyPrefix()).events(sessionId)).arg("-").arg("+")));
    assertThat(stream.toString()).doesNotContain(text).doesNotContain("step seven");
  }

  @Test
  void aTurnCompletedByAGroupCommitKeepsNoCopyOfItsCallsRecords() {
    Turn t = turn("t1", "a", "b");
    long epoch = submitted(t);
    TurnResult result = succeeded(t, "x", "y");
    assertThat(await(journal.callsCompleted(sessionId, epoch, "t1", result.calls(), result, null,
        noText -> null)).turnCompleted()).isTrue();

    assertAnsweredFromItsCallsRecords(result);
  }

  @Test
  void aTurnCompletedAfterItsCallsIsKeptAsAGroupCommitKeepsIt() {
    Turn t = turn("t1", "a", "b");
    long epoch = submitted(t);
    TurnResult result = succeeded(t, "x", "y");
    await(journal.callsCompleted(sessionId, epoch, "t1", result.calls(), null, null, noText -> null));
    await(journal.turnCompleted(sessionId, epoch, result));

    assertAnsweredFromItsCallsRecords(result);
  }

  @Test
  void aTurnCompletedAfterOneOfItsCallsWasReconciledKeepsTheResultsItDelivered() {
    Turn t = turn("t1", "a");
    long epoch = submitted(t);
    CallResult unknown = record(t, 0, Outcome.OUTCOME_UNKNOWN, null, "timed out");
    await(journal.callsCompleted(sessionId, epoch, "t1", List.of(unknown), null, null, noText -> null));
    await(journal.reconcile(sessionId, t.callId(sessionId, 0), Outcome.SUCCEEDED, "ops", "found at the provider"));
    TurnResult delivered = new TurnResult(sessionId, "t1", List.of(unknown));
    await(journal.turnCompleted(sessionId, epoch, delivered));

    assertThat(await(journal.turnResult(sessionId, "t1")).toJson()).isEqualTo(delivered.toJson());
    assertThat(await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT,
        t))).results().toJson()).isEqualTo(delivered.toJson());
  }

  /** The turn answers its results, and its hash holds no copy of them. */
  private void assertAnsweredFromItsCallsRecords(TurnResult result) {
    Response copy = await(redis().send(Request.cmd(Command.HGET)
        .arg(new JournalKeys(REDIS.keyPrefix()).turn(sessionId, result.turnId())).arg("results")));
    assertThat(copy).isNull();
    assertThat(await(journal.turnResult(sessionId, result.turnId())).toJson()).isEqualTo(result.toJson());
  }
}
