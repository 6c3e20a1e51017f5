package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.CallStatus;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.IdempotencyKey;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.retention.ArchiveRecords;
import dev.ratchet.runtime.retention.ArchiveSink;
import dev.ratchet.runtime.retention.RetentionOptions;
import dev.ratchet.runtime.retention.RetentionPolicy;
import dev.ratchet.runtime.retention.RetentionSweeper;
import dev.ratchet.runtime.testing.JournalStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static dev.ratchet.runtime.testing.Await.await;
import static dev.ratchet.runtime.testing.Await.failure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The retention TCK: what the sweeper may remove from a journal and what it must never remove (J9),
 * tombstones and their window, the archive round trip, and erasure. Each journal's test extends it.
 */
public abstract class RetentionContract {

  protected static final String AGENT = "retained-agent";
  private static final long HOUR = 3_600_000;

  protected Vertx vertx;
  protected SessionJournal journal;
  protected JournalRetention retention;
  protected JournalQueries queries;
  protected ArchiveSink archive;
  protected String sessionId;
  @TempDir
  Path archiveDir;

  /** The store under test is the {@link JournalStore} the test class's extension resolves. */
  @BeforeEach
  void setUp(JournalStore store) {
    vertx = Vertx.vertx();
    journal = store.open(vertx);
    retention = JournalPorts.retention(journal);
    queries = JournalPorts.queries(journal);
    archive = ArchiveSink.jsonLines(vertx, archiveDir, 1024 * 1024);
    sessionId = "s-" + UUID.randomUUID();
  }

  @AfterEach
  void tearDown() {
    journal.close();
    await(vertx.close());
  }

  private RetentionSweeper sweeper(RetentionPolicy policy) {
    return sweeper(policy, archive);
  }

  private RetentionSweeper sweeper(RetentionPolicy policy, ArchiveSink sink) {
    RetentionOptions options = RetentionOptions.DISABLED.withEnabled(true).withDefaultPolicy(policy)
        .withTombstoneWindow(Duration.ofHours(1));
    return new RetentionSweeper(vertx, retention, sink, options);
  }

  /** Archives idle sessions after ten minutes and forgets them two hours after they were archived. */
  private RetentionSweeper forgetting() {
    RetentionOptions options = RetentionOptions.DISABLED.withEnabled(true)
        .withDefaultPolicy(new RetentionPolicy(null, null, Duration.ofMinutes(10)))
        .withTombstoneWindow(Duration.ofHours(1)).withForgetAfter(Duration.ofHours(2));
    return new RetentionSweeper(vertx, retention, archive, options);
  }

  private static Turn turn(String turnId, String... tools) {
    List<ToolCall> calls = new ArrayList<>();
    for (int i = 0; i < tools.length; i++) {
      calls.add(new ToolCall(tools[i], new JsonObject().put("n", i)));
    }
    return new Turn(turnId, calls);
  }

  private CallResult record(Turn turn, int index, Outcome outcome, Object value) {
    return new CallResult(index, turn.callId(sessionId, index), turn.calls().get(index).name(), null,
        EffectClass.NON_IDEMPOTENT_WRITE, outcome, value, outcome == Outcome.SUCCEEDED ? null : "timed out", 1, false,
        false, null, 5, null);
  }

  /** Submits and completes a one-call turn with {@code outcome}; answers the epoch. */
  private long completed(long epoch, String turnId, Outcome outcome) {
    Turn t = turn(turnId, "send");
    await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, t).withCaller("alice")));
    CallResult r = record(t, 0, outcome, outcome == Outcome.SUCCEEDED ? new JsonObject().put("sent", turnId) : null);
    await(journal.callsCompleted(sessionId, epoch, turnId, List.of(r), new TurnResult(sessionId, turnId,
        List.of(r)), null, noText -> null));
    return epoch;
  }

  /** Claims the session and completes these turns, each with one call that succeeded; answers the epoch. */
  private long claimedWithSucceeded(String... turnIds) {
    long epoch = await(journal.claim(sessionId, "node-1").map(ClaimedSession::epoch));
    for (String turnId : turnIds) {
      completed(epoch, turnId, Outcome.SUCCEEDED);
    }
    return epoch;
  }

  private long now() {
    return System.currentTimeMillis();
  }

  private List<String> turnIds() {
    SessionHistory h = await(retention.history(sessionId));
    List<String> ids = new ArrayList<>();
    h.turns().forEach(t -> ids.add(t.turnId()));
    return ids;
  }

  @Test
  void turnsBeyondTheLastNAreArchivedThenRemovedAndTheirResubmissionAnswersFromTheTombstone() {
    long epoch = claimedWithSucceeded("t1", "t2", "t3", "t4", "t5");
    await(sweeper(new RetentionPolicy(null, 2, null)).check(sessionId, now()));

    assertThat(turnIds()).containsExactly("t4", "t5");
    assertThat(await(journal.turnResult(sessionId, "t1"))).isNull();
    assertThat(await(queries.events(sessionId, null, 1000))).noneMatch(e -> "t1".equals(e.getString("turn")));
    List<JsonObject> archived = await(archive.read(sessionId));
    assertThat(archived).extracting(r -> r.getString("turn")).containsExactly("t1", "t2", "t3");
    assertThat(archived.get(0).getJsonObject("results").getJsonArray("results").getJsonObject(0)
        .getJsonObject("result")).isEqualTo(new JsonObject().put("sent", "t1"));

    SubmitAnswer again = await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, turn("t1",
        "send")).withCaller("alice")));
    assertThat(again.status()).isEqualTo(SubmitAnswer.Status.COMPLETED);
    assertThat(again.results().calls()).singleElement().satisfies(c -> {
      assertThat(c.outcome()).isEqualTo(Outcome.SUCCEEDED);
      assertThat(c.callId()).isEqualTo(turn("t1", "send").callId(sessionId, 0));
    });
    assertThat(turnIds()).doesNotContain("t1");
  }

  @Test
  void aTurnsOlderThanKeepForAreRemovedAndNewerOnesKept() {
    long epoch = claimedWithSucceeded("old");
    completed(epoch, "new", Outcome.FAILED);
    // an hour on, both are older than 30 minutes; the policy keeps none by count
    await(sweeper(new RetentionPolicy(Duration.ofMinutes(30), null, null)).check(sessionId, now() + HOUR));
    assertThat(turnIds()).isEmpty();

    String other = sessionId;
    sessionId = other + "-b";
    long e2 = await(journal.claim(sessionId, "node-1").map(ClaimedSession::epoch));
    completed(e2, "fresh", Outcome.SUCCEEDED);
    await(sweeper(new RetentionPolicy(Duration.ofMinutes(30), null, null)).check(sessionId, now()));
    assertThat(turnIds()).containsExactly("fresh");
  }

  @Test
  void aTurnWithACallWithoutAFinalOutcomeIsNeverRemoved() {
    long epoch = await(journal.claim(sessionId, "node-1").map(ClaimedSession::epoch));
    Turn t = turn("running", "send", "send");
    await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, t).withCaller("alice")));
    await(journal.callStarted(sessionId, epoch, "running", new CallStart(t.callId(sessionId, 0), 1, new JsonObject())));
    await(JournalFixture.completed(journal, sessionId, epoch, "running", record(t, 1, Outcome.SUCCEEDED, "x")));

    await(sweeper(new RetentionPolicy(Duration.ZERO, 0, Duration.ofMinutes(1))).check(sessionId, now() + HOUR));

    assertThat(turnIds()).containsExactly("running");
    assertThat(await(journal.callState(sessionId, t.callId(sessionId, 0))).state()).isEqualTo(CallStatus.STARTED);
    assertThat(await(journal.inflightTurns(sessionId))).hasSize(1);
    assertThat(await(queries.sessionInfo(sessionId)).containsKey("archivedAt")).isFalse();
    assertThat(await(archive.read(sessionId))).isEmpty();
  }

  @Test
  void anOutcomeUnknownIsNeverRemovedUntilAPersonReconcilesIt() {
    long epoch = await(journal.claim(sessionId, "node-1").map(ClaimedSession::epoch));
    completed(epoch, "unknown", Outcome.OUTCOME_UNKNOWN);
    completed(epoch, "known", Outcome.SUCCEEDED);
    RetentionSweeper sweeper = sweeper(new RetentionPolicy(Duration.ZERO, 0, Duration.ofMinutes(1)));

    await(sweeper.check(sessionId, now() + HOUR));
    assertThat(turnIds()).containsExactly("unknown");
    assertThat(await(queries.sessionInfo(sessionId)).containsKey("archivedAt")).isFalse();

    await(journal.reconcile(sessionId, turn("unknown", "send").callId(sessionId, 0), Outcome.FAILED, "ops", "checked"));
    await(sweeper.check(sessionId, now() + 2 * HOUR));
    assertThat(turnIds()).isEmpty();
  }

  @Test
  void aPendingApprovalIsNeverRemoved() {
    long epoch = await(journal.claim(sessionId, "node-1").map(ClaimedSession::epoch));
    Turn t = turn("asks", "send");
    await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, t).withCaller("alice")));
    JsonObject args = t.calls().get(0).arguments();
    await(journal.approvalRequested(epoch, new ApprovalRequest(AGENT, sessionId, "asks", t.callId(sessionId, 0), "send",
        EffectClass.NON_IDEMPOTENT_WRITE, args, IdempotencyKey.argumentsHash(args), "approval required", now(), 0)));

    await(sweeper(new RetentionPolicy(Duration.ZERO, 0, Duration.ofMinutes(1))).check(sessionId, now() + HOUR));

    assertThat(turnIds()).containsExactly("asks");
    assertThat(await(queries.pendingApprovals(100))).anyMatch(a -> a.sessionId().equals(sessionId));
  }

  @Test
  void anIdleSessionIsArchivedWholeAndKeepsItsMetaOwnerEpochAndCaller() {
    long epoch = claimedWithSucceeded("t1", "t2");

    await(sweeper(new RetentionPolicy(null, null, Duration.ofMinutes(10))).check(sessionId, now() + HOUR));

    JsonObject info = await(queries.sessionInfo(sessionId));
    assertThat(info.getString("caller")).isEqualTo("alice");
    assertThat(info.getString("agent")).isEqualTo(AGENT);
    assertThat(info.getLong("epoch")).isEqualTo(epoch);
    assertThat(info.getLong("archivedAt")).isNotNull();
    assertThat(turnIds()).isEmpty();
    assertThat(await(queries.events(sessionId, null, 100))).isEmpty();
    assertThat(await(archive.read(sessionId))).extracting(r -> r.getString("kind")).containsExactly("turn", "turn", "session");
    // the session lives on: its caller still owns it, and a new claim fences the old owner
    assertThat(await(journal.claim(sessionId, "node-2").map(ClaimedSession::epoch))).isEqualTo(epoch + 1);
    assertThat(failure(journal.submitTurn(TurnSubmission.of(sessionId, epoch + 1, AGENT, turn("t3", "send"))
        .withCaller("mallory"))))
        .isInstanceOf(RatchetException.class).hasMessageContaining("another caller");
    assertThat(await(journal.submitTurn(TurnSubmission.of(sessionId, epoch + 1, AGENT, turn("t1", "send"))
        .withCaller("alice"))).status())
        .isEqualTo(SubmitAnswer.Status.COMPLETED);
  }

  @Test
  void aTombstoneAnswersEveryCallAsJournaledSaveItsResultAndHoldsNeitherResultsNorWhatTheSpecGivesBack() {
    long epoch = await(journal.claim(sessionId, "node-1").map(ClaimedSession::epoch));
    Turn t = turn("t1", "send", "fetch");
    await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, t).withCaller("alice")));
    List<CallResult> records = List.of(record(t, 0, Outcome.SUCCEEDED, new JsonObject().put("sent", "secret-result")),
        record(t, 1, Outcome.FAILED, null));
    await(journal.callsCompleted(sessionId, epoch, "t1", records, new TurnResult(sessionId, "t1", records),
        null, noText -> null));
    TurnResult original = await(journal.turnResult(sessionId, "t1"));
    await(sweeper(new RetentionPolicy(null, 0, null)).check(sessionId, now()));

    JsonObject stone = await(retention.history(sessionId)).tombstones().get("t1");
    assertThat(stone.encode()).doesNotContain("secret-result").doesNotContain(t.callId(sessionId, 0).value())
        .doesNotContain("\"tool\"");
    TurnResult answered = await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, t)
        .withCaller("alice"))).results();
    assertThat(answered.turnId()).isEqualTo("t1");
    assertThat(answered.calls()).hasSize(2);
    for (int i = 0; i < 2; i++) {
      JsonObject expected = original.calls().get(i).toJson();
      expected.remove("result");
      assertThat(answered.calls().get(i).toJson()).isEqualTo(expected);
    }
  }

  @Test
  void aRemovedTurnResubmittedWithOtherCallsIsRefusedAsAConflict() {
    long epoch = claimedWithSucceeded("t1");
    await(sweeper(new RetentionPolicy(null, 0, null)).check(sessionId, now()));
    assertThat(turnIds()).isEmpty();

    assertThat(await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, turn("t1", "delete"))
        .withCaller("alice"))).status())
        .isEqualTo(SubmitAnswer.Status.CONFLICT);
  }

  @Test
  void pastTheTombstoneWindowAResubmissionIsRefusedAsExpiredAndNeverRunAgain() {
    long epoch = claimedWithSucceeded("t1");
    RetentionSweeper sweeper = sweeper(new RetentionPolicy(null, 0, null));
    await(sweeper.check(sessionId, now()));
    assertThat(await(retention.history(sessionId)).tombstones()).containsKey("t1");

    // the window is an hour: two hours on, the tombstone goes
    await(sweeper.check(sessionId, now() + 2 * HOUR));
    assertThat(await(retention.history(sessionId)).tombstones()).isEmpty();

    assertThat(await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, turn("t1", "send"))
        .withCaller("alice"))).status())
        .isEqualTo(SubmitAnswer.Status.EXPIRED);
    assertThat(turnIds()).isEmpty();
    assertThat(await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, turn("t2", "send"))
        .withCaller("alice"))).status())
        .isEqualTo(SubmitAnswer.Status.NEW);
  }

  @Test
  void whenTheArchiveFailsNothingIsRemoved() {
    claimedWithSucceeded("t1");
    ArchiveSink broken = new ArchiveSink() {
      @Override
      public Future<Void> append(String s, List<JsonObject> records) {
        return Future.failedFuture(new RatchetException(ErrorCode.ARCHIVE_ERROR, "disk full"));
      }

      @Override
      public Future<List<JsonObject>> read(String s) {
        return Future.succeededFuture(List.of());
      }

      @Override
      public Future<Integer> erase(String s) {
        return Future.succeededFuture(0);
      }
    };
    RetentionSweeper sweeper = sweeper(new RetentionPolicy(null, 0, Duration.ofMinutes(1)), broken);
    assertThat(failure(sweeper.check(sessionId, now() + HOUR))).hasMessageContaining("disk full");
    assertThat(turnIds()).containsExactly("t1");
    assertThat(await(journal.turnResult(sessionId, "t1")).calls()).hasSize(1);
  }

  @Test
  void anExportedSessionImportedAfterErasureAnswersItsTurnsFromTheJournalAndImportNeverOverwrites() {
    long epoch = claimedWithSucceeded("t1");
    completed(epoch, "t2", Outcome.FAILED);
    RetentionSweeper sweeper = sweeper(new RetentionPolicy(null, 1, null));
    await(sweeper.check(sessionId, now()));
    List<JsonObject> exported = ArchiveRecords.export(await(archive.read(sessionId)),
        await(retention.history(sessionId)), now());
    assertThat(exported).filteredOn(r -> "turn".equals(r.getString("kind"))).extracting(r -> r.getString("turn"))
        .containsExactly("t1", "t2");

    SessionHistory history = ArchiveRecords.history(sessionId, exported);
    assertThat(failure(retention.importSession(history))).isInstanceOf(RatchetException.class)
        .hasMessageContaining("already holds");
    assertThat(await(sweeper.erase(sessionId, "ops"))).isTrue();
    assertThat(await(retention.importSession(history))).isEqualTo(2);

    long e2 = await(journal.claim(sessionId, "node-1").map(ClaimedSession::epoch));
    SubmitAnswer again = await(journal.submitTurn(TurnSubmission.of(sessionId, e2, AGENT, turn("t1", "send"))
        .withCaller("alice")));
    assertThat(again.status()).isEqualTo(SubmitAnswer.Status.COMPLETED);
    assertThat(again.results().calls().get(0).result()).isEqualTo(new JsonObject().put("sent", "t1"));
    assertThat(await(queries.sessionInfo(sessionId)).getString("caller")).isEqualTo("alice");
  }

  @Test
  void erasureRemovesTheJournalTombstonesAndArchiveAndAuditsWhoAndWhenWithoutContent() {
    long epoch = claimedWithSucceeded("t1", "t2");
    RetentionSweeper sweeper = sweeper(new RetentionPolicy(null, 1, null));
    await(sweeper.check(sessionId, now()));
    assertThat(await(archive.read(sessionId))).isNotEmpty();

    assertThat(await(sweeper.erase(sessionId, "operator-1"))).isTrue();

    assertThat(await(queries.sessionInfo(sessionId))).isEqualTo(new JsonObject());
    assertThat(await(retention.history(sessionId))).isNull();
    assertThat(await(archive.read(sessionId))).isEmpty();
    assertThat(await(queries.recentSessions(0, 1000))).doesNotContain(sessionId);
    // nothing of the session is left to answer from, and its id is not started again
    assertThat(failure(journal.claim(sessionId,
        "node-1").map(ClaimedSession::epoch))).isInstanceOf(RatchetException.class)
        .satisfies(e -> assertThat(((RatchetException) e).errorCode()).isEqualTo(ErrorCode.SESSION_ERASED));
    assertThat(failure(journal.claim(sessionId, "node-1"))).isInstanceOf(RatchetException.class)
        .satisfies(e -> assertThat(((RatchetException) e).errorCode()).isEqualTo(ErrorCode.SESSION_ERASED));
    assertThat(failure(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, turn("t3", "send"))
        .withCaller("alice"))))
        .as("the owner at the erasure is told the session was erased, not that another node took it")
        .satisfies(e -> assertThat(((RatchetException) e).errorCode()).isEqualTo(ErrorCode.SESSION_ERASED));
    assertThat(await(queries.sessionInfo(sessionId))).isEqualTo(new JsonObject());
    List<JsonObject> audit = await(retention.audit(1000));
    assertThat(audit).filteredOn(a -> sessionId.equals(a.getString("session"))).singleElement().satisfies(a -> {
      assertThat(a.getString("action")).isEqualTo("erase");
      assertThat(a.getString("who")).isEqualTo("operator-1");
      assertThat(a.getLong("at")).isPositive();
      assertThat(a.encode()).doesNotContain("sent").doesNotContain("alice");
    });
    assertThat(await(retention.erase("s-never-" + UUID.randomUUID(), "operator-1"))).isFalse();
  }

  @Test
  void theSweeperFindsActiveSessionsAndChecksOnlyADueBatch() {
    claimedWithSucceeded("t1", "t2", "t3");
    // submitTurn's index lists the session among recent ones, which the sweeper's pass picks up
    RetentionSweeper sweeper = sweeper(new RetentionPolicy(null, 1, null));
    assertThat(await(sweeper.sweep())).isGreaterThanOrEqualTo(1);
    assertThat(turnIds()).containsExactly("t3");
    assertThat(sweeper.stats().turnsRemoved).isGreaterThanOrEqualTo(2);
  }

  @Test
  void anArchivedSessionIsForgottenOnlyAfterForgetAfterAndItsIdIsThenRefusedNeverStartedAgain() {
    long epoch = claimedWithSucceeded("t1");
    RetentionSweeper sweeper = forgetting();
    long t0 = now();
    // an hour on: archived whole; its tombstone answers t1 within the window
    await(sweeper.check(sessionId, t0 + HOUR));
    assertThat(await(queries.sessionInfo(sessionId)).getLong("archivedAt")).isEqualTo(t0 + HOUR);
    // the tombstone has expired, but forgetAfter has not passed since the session was archived
    await(sweeper.check(sessionId, t0 + 2 * HOUR + 60_000));
    assertThat(await(queries.sessionInfo(sessionId)).getString("caller")).isEqualTo("alice");
    assertThat(sweeper.stats().sessionsForgotten).isZero();

    await(sweeper.check(sessionId, t0 + 3 * HOUR + 60_000));

    assertThat(sweeper.stats().sessionsForgotten).isEqualTo(1);
    assertThat(await(retention.history(sessionId))).isNull();
    assertThat(await(queries.sessionInfo(sessionId))).isEqualTo(new JsonObject());
    assertThat(await(queries.recentSessions(0, 1000))).doesNotContain(sessionId);
    assertThat(await(retention.due(Long.MAX_VALUE, 1000))).doesNotContain(sessionId);
    // the archive keeps the session's history
    assertThat(await(archive.read(sessionId))).extracting(r -> r.getString("kind")).containsExactly("turn", "session");
    // its id is refused, by any node, and nothing of it is created again: neither t1 nor a new turn runs
    assertThat(failure(journal.claim(sessionId,
        "node-2").map(ClaimedSession::epoch))).isInstanceOf(RatchetException.class)
        .satisfies(e -> assertThat(((RatchetException) e).errorCode()).isEqualTo(ErrorCode.SESSION_FORGOTTEN));
    assertThat(failure(journal.claim(sessionId, "node-2"))).isInstanceOf(RatchetException.class)
        .satisfies(e -> assertThat(((RatchetException) e).errorCode()).isEqualTo(ErrorCode.SESSION_FORGOTTEN));
    assertThat(await(queries.sessionInfo(sessionId))).isEqualTo(new JsonObject());
    // the old owner is fenced: the meta with its epoch is gone, so none of its writes lands
    assertThat(failure(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, turn("t2", "send"))
        .withCaller("alice"))))
        .isInstanceOf(RatchetException.class)
        .satisfies(e -> assertThat(((RatchetException) e).errorCode()).isEqualTo(ErrorCode.FENCED));
    // other sessions start as before
    String other = sessionId + "-new";
    assertThat(await(journal.claim(other, "node-1").map(ClaimedSession::epoch))).isEqualTo(1L);
  }

  @Test
  void aSessionWithActivityAfterItsArchiveOrAPendingTombstoneIsNotForgotten() {
    long epoch = claimedWithSucceeded("t1");
    RetentionSweeper sweeper = forgetting();
    long t0 = now();
    await(sweeper.check(sessionId, t0 + HOUR));
    long archivedAt = await(queries.sessionInfo(sessionId)).getLong("archivedAt");
    long seen = await(queries.sessionInfo(sessionId)).getLong("updatedAt");
    // the tombstone of t1 has not expired: the step refuses to forget whatever the sweeper read
    assertThat(await(retention.forget(sessionId, epoch, seen, archivedAt))).isFalse();
    assertThat(await(queries.sessionInfo(sessionId)).getString("caller")).isEqualTo("alice");

    // a new turn after the archive: the session is live again and is not forgotten
    completed(epoch, "t2", Outcome.SUCCEEDED);
    await(sweeper.check(sessionId, t0 + 10 * HOUR));
    await(sweeper.check(sessionId, t0 + 10 * HOUR + 1));
    assertThat(await(queries.sessionInfo(sessionId)).getString("caller")).isEqualTo("alice");
    assertThat(sweeper.stats().sessionsForgotten).isZero();
    assertThat(await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, turn("t2", "send"))
        .withCaller("alice"))).status())
        .isEqualTo(SubmitAnswer.Status.COMPLETED);
  }

  @Test
  void forgettingIsFencedAClaimInBetweenKeepsTheSession() {
    long epoch = claimedWithSucceeded("t1");
    RetentionSweeper sweeper = forgetting();
    long t0 = now();
    await(sweeper.check(sessionId, t0 + HOUR));
    await(sweeper.check(sessionId, t0 + 2 * HOUR + 60_000));
    JsonObject info = await(queries.sessionInfo(sessionId));
    await(journal.claim(sessionId, "node-2").map(ClaimedSession::epoch));

    assertThat(failure(retention.forget(sessionId, epoch, info.getLong("updatedAt"), Long.MAX_VALUE)))
        .isInstanceOf(RatchetException.class);
    assertThat(await(queries.sessionInfo(sessionId)).getLong("epoch")).isEqualTo(epoch + 1);
  }

  @Test
  void anUnarchivedSessionIsNeverForgottenWhateverItsAge() {
    long epoch = await(journal.claim(sessionId, "node-1").map(ClaimedSession::epoch));
    Turn t = turn("running", "send");
    await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, t).withCaller("alice")));
    RetentionSweeper sweeper = forgetting();
    for (int h = 1; h <= 5; h++) {
      await(sweeper.check(sessionId, now() + h * 10 * HOUR));
    }
    assertThat(sweeper.stats().sessionsForgotten).isZero();
    assertThat(await(queries.sessionInfo(sessionId)).containsKey("archivedAt")).isFalse();
    assertThat(await(journal.inflightTurns(sessionId))).hasSize(1);
    long info = await(queries.sessionInfo(sessionId)).getLong("updatedAt");
    assertThat(await(retention.forget(sessionId, epoch, info, Long.MAX_VALUE))).isFalse();
  }

  @Test
  void forgetAfterShorterThanTheTombstoneWindowIsRefused() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> RetentionOptions.DISABLED
            .withTombstoneWindow(Duration.ofHours(2)).withForgetAfter(Duration.ofHours(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("forgetArchivedAfterMillis");
    assertThat(RetentionOptions.fromJson(new JsonObject().put("tombstoneWindowMillis", 1000)
        .put("forgetArchivedAfterMillis", 5000)).forgetAfter()).isEqualTo(Duration.ofSeconds(5));
    assertThat(RetentionOptions.fromJson(new JsonObject()).forgetAfter()).isNull();
  }
}
