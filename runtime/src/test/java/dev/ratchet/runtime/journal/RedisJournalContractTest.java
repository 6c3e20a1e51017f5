package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.Vertx;
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

  @Override
  protected SessionJournal open(Vertx vertx) {
    return await(RedisJournal.open(vertx, JournalOptions.of(REDIS.url()).withKeyPrefix(REDIS.keyPrefix())));
  }

  @Override
  protected boolean persistsAcrossInstances() {
    return true;
  }

  private RedisJournal redis() {
    return (RedisJournal) journal;
  }

  @Test
  void aCallCompletedByAnEarlierReleaseStaysDoneIsNeverJournaledAgainAndCanBeReconciled() {
    long epoch = await(journal.claim(sessionId, "node-1"));
    Turn t = turn("t1", "refund");
    await(journal.submitTurn(sessionId, epoch, AGENT, t));
    CallId id = t.callId(sessionId, 0);
    CallResult unknown = record(t, 0, Outcome.OUTCOME_UNKNOWN, null, "timed out");
    // the layout of earlier releases: the outcome and a state beside the record
    String key = new JournalKeys(REDIS.keyPrefix()).call(sessionId, id.value());
    await(redis().send(Request.cmd(Command.HSET).arg(key).arg("turn").arg("t1").arg("state").arg("done")
        .arg("outcome").arg("outcome_unknown").arg("record").arg(unknown.toJson().encode())
        .arg("completedAt").arg(System.currentTimeMillis())));

    CallState state = await(journal.callState(sessionId, id));
    assertThat(state.isDone()).isTrue();
    assertThat(state.state()).isEqualTo("done");
    CallResult late = record(t, 0, Outcome.SUCCEEDED, "late", null);
    assertThat(await(journal.callCompleted(sessionId, epoch, "t1", late)).outcome()).isEqualTo(Outcome.OUTCOME_UNKNOWN);
    assertThat(await(journal.callsCompleted(sessionId, epoch, "t1", List.of(late),
        new TurnResult(sessionId, "t1", List.of(late)))).records().get(0).outcome()).isEqualTo(Outcome.OUTCOME_UNKNOWN);

    assertThat(await(journal.reconcile(sessionId, id, Outcome.SUCCEEDED, "ops", "found at the provider")).outcome())
        .isEqualTo(Outcome.SUCCEEDED);
    assertThat(await(journal.callState(sessionId, id)).record().outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(await(redis().send(Request.cmd(Command.HGET).arg(key).arg("outcome"))).toString()).isEqualTo("succeeded");
    assertThat(code(journal.reconcile(sessionId, id, Outcome.FAILED, "ops", "again"))).isEqualTo("NOT_UNKNOWN");
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
          claims.add(small.claimAndLoad(sessionId + "-" + i, "node-1"));
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
  void entriesInTheLayoutOfEarlierReleasesReadBackAsTheSameEvents() {
    long epoch = await(journal.claim(sessionId, "node-1"));
    Turn t = turn("t1", "r1", "w1");
    CallId w1 = t.callId(sessionId, 1);
    JsonObject startedData = new JsonObject().put("attempt", 1).put("tool", "w1");
    await(journal.submitTurn(sessionId, epoch, AGENT, null, t, false, new CallStart(w1, 1, startedData)));
    CallResult read = record(t, 0, Outcome.SUCCEEDED, "r1", null);
    CallResult write = record(t, 1, Outcome.OUTCOME_UNKNOWN, null, "timed out");
    TurnResult result = new TurnResult(sessionId, "t1", List.of(read, write));
    await(journal.callsCompleted(sessionId, epoch, "t1", List.of(read, write), result));
    List<JsonObject> current = await(journal.events(sessionId, null, 100));

    // the same steps as earlier releases journaled them: each event's type, call and data as fields
    String stream = new JournalKeys(REDIS.keyPrefix()).events(sessionId);
    JsonObject claimed = current.get(0);
    long submittedAt = current.get(1).getLong("at");
    long completedAt = current.get(3).getLong("at");
    await(redis().send(Request.cmd(Command.DEL).arg(stream)));
    await(redis().send(Request.cmd(Command.XADD).arg(stream).arg("*").arg("type").arg("session.claimed")
        .arg("at").arg(claimed.getLong("at")).arg("data").arg(claimed.getJsonObject("data").encode())));
    await(redis().send(Request.cmd(Command.XADD).arg(stream).arg("*").arg("type").arg("turn.submitted")
        .arg("turn").arg("t1").arg("at").arg(submittedAt)
        .arg("type").arg("call.started").arg("call").arg(w1.value()).arg("data").arg(startedData.encode())));
    await(redis().send(Request.cmd(Command.XADD).arg(stream).arg("*").arg("type").arg("call.completed")
        .arg("turn").arg("t1").arg("at").arg(completedAt).arg("call").arg(read.callId().value())
        .arg("data").arg(RecordText.completedEvent(read, null))
        .arg("type").arg("call.completed").arg("call").arg(w1.value()).arg("data").arg(RecordText.completedEvent(write, null))
        .arg("type").arg("turn.completed").arg("data").arg(RecordText.turnSummary(result))));
    List<JsonObject> earlier = await(journal.events(sessionId, null, 100));

    assertThat(earlier).hasSize(6);
    assertThat(withoutEntryIds(earlier)).isEqualTo(withoutEntryIds(current));
    assertThat(current.get(3).getJsonObject("data").getString("tool")).isEqualTo("r1");
  }

  /** The events with each id's entry part left out: what is left is the event's place in its entry. */
  private static List<JsonObject> withoutEntryIds(List<JsonObject> events) {
    List<JsonObject> out = new ArrayList<>();
    for (JsonObject e : events) {
      String id = e.getString("id");
      int dot = id.lastIndexOf('.');
      out.add(e.copy().put("id", dot < 0 ? "" : id.substring(dot)));
    }
    return out;
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
    long epoch = await(journal.claim(sessionId, "node-1"));
    await(journal.submitTurn(sessionId, epoch, AGENT, turn("t1", "a")));
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
    long epoch = await(journal.claim(sessionId, "node-1"));
    await(redis().send(Request.cmd(Command.SCRIPT).arg("FLUSH")));
    Turn t = turn("t1", "a");
    assertThat(await(journal.submitTurn(sessionId, epoch, AGENT, t)).status()).isEqualTo(SubmitAnswer.Status.NEW);
    assertThat(await(journal.claim(sessionId, "node-2"))).isEqualTo(epoch + 1);
    // fencing still holds through the fallback
    assertThat(code(journal.callStarted(sessionId, epoch, "t1", t.callId(sessionId, 0), 1, new JsonObject())))
        .isEqualTo("FENCED");
  }

  @Test
  void everyKeyOfASessionIsHashTaggedWithItsId() {
    long epoch = await(journal.claim(sessionId, "node-1"));
    Turn t = turn("t1", "a", "b");
    await(journal.submitTurn(sessionId, epoch, AGENT, t));
    await(journal.callStarted(sessionId, epoch, "t1", t.callId(sessionId, 0), 1, new JsonObject()));
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
    long epoch = await(journal.claim(sessionId, "node-1"));
    String text = "a long message for the channel ".repeat(40);
    Turn t = new Turn("t1", List.of(new ToolCall("post", new JsonObject().put("text", text)), new ToolCall("look",
        new JsonObject())));
    await(journal.submitTurn(sessionId, epoch, AGENT, t));
    CallResult unknown = record(t, 0, Outcome.OUTCOME_UNKNOWN, null, "the provider timed out at step seven");
    await(journal.callsCompleted(sessionId, epoch, "t1", List.of(unknown), null));

    Response stream = await(redis().send(Request.cmd(Command.XRANGE)
        .arg(new JournalKeys(REDIS.keyPrefix()).events(sessionId)).arg("-").arg("+")));
    assertThat(stream.toString()).doesNotContain(text).doesNotContain("step seven");
  }

  @Test
  void aTurnCompletedByAGroupCommitKeepsNoCopyOfItsCallsRecords() {
    long epoch = await(journal.claim(sessionId, "node-1"));
    Turn t = turn("t1", "a", "b");
    await(journal.submitTurn(sessionId, epoch, AGENT, t));
    CallResult a = record(t, 0, Outcome.SUCCEEDED, "x", null);
    CallResult b = record(t, 1, Outcome.SUCCEEDED, "y", null);
    TurnResult result = new TurnResult(sessionId, "t1", List.of(a, b));
    assertThat(await(journal.callsCompleted(sessionId, epoch, "t1", List.of(a, b), result)).turnCompleted()).isTrue();

    Response copy = await(redis().send(Request.cmd(Command.HGET)
        .arg(new JournalKeys(REDIS.keyPrefix()).turn(sessionId, "t1")).arg("results")));
    assertThat(copy).isNull();
    assertThat(await(journal.turnResult(sessionId, "t1")).toJson()).isEqualTo(result.toJson());
  }
}
