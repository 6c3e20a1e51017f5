package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.IdempotencyKey;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static dev.ratchet.runtime.testing.Await.await;
import static dev.ratchet.runtime.testing.Await.failure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The journal TCK: the contract of {@link SessionJournal} (fencing, idempotent transitions, recovery
 * input, approvals, events), which every implementation's test extends with {@link #open} and its
 * capabilities. What one store adds (its layout, its connections) is tested by that store's subclass.
 */
public abstract class SessionJournalContract extends JournalFixture {

  @Test
  void claimingASessionIncrementsItsEpochAndRecordsTheOwner() {
    long first = await(journal.claim(sessionId, "node-1").map(ClaimedSession::epoch));
    long second = await(journal.claim(sessionId, "node-2").map(ClaimedSession::epoch));
    assertThat(second).isEqualTo(first + 1);
    assertThat(await(queries.currentEpoch(sessionId))).isEqualTo(second);
    assertThat(await(queries.sessionInfo(sessionId)).getString("owner")).isEqualTo("node-2");
  }

  @Test
  void everyAppendWithAStaleEpochIsRefusedAsFencedAndChangesNothing() {
    Turn t = turn("t1", "a", "b");
    long stale = submitted(t);
    long fresh = await(journal.claim(sessionId, "node-2").map(ClaimedSession::epoch));
    assertThat(fresh).isGreaterThan(stale);
    int before = eventCount();

    assertThat(code(journal.appendEvent(sessionId, stale, "call.attempt_failed", "t1", null, new JsonObject())))
        .isEqualTo("FENCED");
    assertThat(code(journal.submitTurn(TurnSubmission.of(sessionId, stale, AGENT, turn("t2",
        "a"))))).isEqualTo("FENCED");
    assertThat(code(journal.callStarted(sessionId, stale, "t1", new CallStart(t.callId(sessionId, 0), 1,
        new JsonObject()))))
        .isEqualTo("FENCED");
    assertThat(code(completed(journal, sessionId, stale, "t1", record(t, 1, Outcome.SUCCEEDED, "x", null))))
        .isEqualTo("FENCED");
    assertThat(code(journal.approvalRequested(stale, approvalRequest(t, 0)))).isEqualTo("FENCED");
    assertThat(code(journal.turnCompleted(sessionId, stale, new TurnResult(sessionId, "t1", List.of(
        record(t, 0, Outcome.SUCCEEDED, "x", null), record(t, 1, Outcome.SUCCEEDED, "y", null)))))).isEqualTo("FENCED");

    assertThat(eventCount()).isEqualTo(before);
    assertThat(await(journal.callState(sessionId, t.callId(sessionId, 0))).state().wireName()).isEqualTo("new");
    assertThat(await(journal.callState(sessionId, t.callId(sessionId, 1))).isDone()).isFalse();
    assertThat(await(journal.turnResult(sessionId, "t1"))).isNull();
    assertThat(await(journal.inflightTurns(sessionId))).extracting(i -> i.turn().turnId()).containsExactly("t1");

    // the current owner is not affected
    await(journal.appendEvent(sessionId, fresh, "call.attempt_failed", "t1", null, new JsonObject()));
    assertThat(eventCount()).isEqualTo(before + 1);
  }

  @Test
  void markingASessionIdleUnderAStaleEpochLeavesItToRecoveryAndOnlyItsOwnerDropsIt() {
    long stale = submitted(turn("t1", "a"));
    long fresh = await(journal.claim(sessionId, "node-2").map(ClaimedSession::epoch));

    await(journal.markIdle(sessionId, stale));
    assertThat(await(queries.activeSessions())).as("after a stale owner's markIdle").contains(sessionId);

    await(journal.markIdle(sessionId, fresh));
    assertThat(await(queries.activeSessions())).as("after its owner's markIdle").doesNotContain(sessionId);
  }

  @Test
  void aTurnsTraceparentIsJournaledWithItAndIsNoPartOfItsIdentity() {
    long epoch = await(journal.claim(sessionId, "node-1").map(ClaimedSession::epoch));
    String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    Turn t = turn("t1", "a").withTraceparent(traceparent);
    assertThat(await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT,
        t))).status()).isEqualTo(SubmitAnswer.Status.NEW);

    // a resume reads it back; the same calls under another trace, or none, are the same turn
    assertThat(await(journal.inflightTurns(sessionId))).singleElement()
        .satisfies(i -> assertThat(i.turn().traceparent()).isEqualTo(traceparent));
    assertThat(await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, turn("t1", "a")))).status())
        .isEqualTo(SubmitAnswer.Status.RUNNING);
    assertThat(await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, turn("t1", "a")
        .withTraceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")))).status())
        .isEqualTo(SubmitAnswer.Status.RUNNING);
    assertThat(await(journal.inflightTurns(sessionId))).singleElement()
        .satisfies(i -> assertThat(i.turn().traceparent()).isEqualTo(traceparent));
  }

  @Test
  void submittingATurnIsIdempotentAndAnswersTheFirstResults() {
    long epoch = await(journal.claim(sessionId, "node-1").map(ClaimedSession::epoch));
    Turn t = turn("t1", "a");
    assertThat(await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT,
        t))).status()).isEqualTo(SubmitAnswer.Status.NEW);
    assertThat(await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT,
        t))).status()).isEqualTo(SubmitAnswer.Status.RUNNING);

    TurnResult results = new TurnResult(sessionId, "t1", List.of(record(t, 0, Outcome.SUCCEEDED, "first", null)));
    await(journal.turnCompleted(sessionId, epoch, results));
    SubmitAnswer again = await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, t)));
    assertThat(again.status()).isEqualTo(SubmitAnswer.Status.COMPLETED);
    assertThat(again.results().toJson()).isEqualTo(results.toJson());

    // completing again keeps the results journaled first (J7)
    TurnResult other = new TurnResult(sessionId, "t1", List.of(record(t, 0, Outcome.FAILED, null, "second")));
    assertThat(await(journal.turnCompleted(sessionId, epoch, other)).toJson()).isEqualTo(results.toJson());

    assertThat(await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, turn("t1", "b")))).status())
        .isEqualTo(SubmitAnswer.Status.CONFLICT);
    assertThat(await(journal.inflightTurns(sessionId))).isEmpty();
  }

  @Test
  void aTurnRecordsTheCatalogueVersionItWasValidatedAgainstWhichIsNotPartOfItsIdentity() {
    long epoch = await(journal.claim(sessionId, "node-1").map(ClaimedSession::epoch));
    Turn t = turn("t1", "a");
    assertThat(await(journal.submitTurn(new TurnSubmission(sessionId, epoch, AGENT, null, null, t,
        "catalogue-1", null, true, null))).status())
        .isEqualTo(SubmitAnswer.Status.NEW);
    // the same turn submitted again after the agent's catalogue changed is the same turn (rule 1)
    assertThat(await(journal.submitTurn(new TurnSubmission(sessionId, epoch, AGENT, null, null, t,
        "catalogue-2", null, true, null))).status())
        .isEqualTo(SubmitAnswer.Status.RUNNING);
    assertThat(await(journal.inflightTurns(sessionId))).singleElement()
        .satisfies(inflight -> assertThat(inflight.catalogue()).isEqualTo("catalogue-1"));
    assertThat(await(journal.claim(sessionId, "node-2")).inflight()).singleElement()
        .satisfies(inflight -> assertThat(inflight.catalogue()).isEqualTo("catalogue-1"));
    JsonObject submitted = await(queries.events(sessionId, null, 100)).stream()
        .filter(e -> "turn.submitted".equals(e.getString("type"))).findFirst().orElseThrow().getJsonObject("data");
    assertThat(submitted.getString("catalogue")).isEqualTo("catalogue-1");
    assertThat(Turn.fromJson(submitted).toJson()).isEqualTo(t.toJson());
  }

  @Test
  void aCallsTerminalOutcomeIsJournaledOnceAndTheFirstRecordWins() {
    Turn t = turn("t1", "a");
    long epoch = submitted(t);
    CallResult first = record(t, 0, Outcome.OUTCOME_UNKNOWN, null, "timed out");
    CallResult second = record(t, 0, Outcome.SUCCEEDED, "late", null);
    assertThat(await(completed(journal, sessionId, epoch, "t1", first)).toJson()).isEqualTo(first.toJson());
    assertThat(await(completed(journal, sessionId, epoch, "t1", second)).toJson()).isEqualTo(first.toJson());
    CallState state = await(journal.callState(sessionId, t.callId(sessionId, 0)));
    assertThat(state.record().outcome()).isEqualTo(Outcome.OUTCOME_UNKNOWN);
    assertThat(await(queries.events(sessionId, null,
        100))).filteredOn(e -> "call.completed".equals(e.getString("type")))
        .hasSize(1);
  }

  @Test
  void aCallCompletedNowCanBeReconciledOnceFromUnknown() {
    Turn t = turn("t1", "refund", "look");
    long epoch = submitted(t);
    CallId unknownId = t.callId(sessionId, 0);
    await(journal.callsCompleted(sessionId, epoch, "t1", List.of(record(t, 0, Outcome.OUTCOME_UNKNOWN, null, "timed out"),
        record(t, 1, Outcome.SUCCEEDED, "x", null)), null, null, noText -> null));

    assertThat(await(journal.callState(sessionId, unknownId)).state().wireName()).isEqualTo("done");
    assertThat(code(journal.reconcile(sessionId, t.callId(sessionId, 1), Outcome.FAILED, "ops", "no")))
        .isEqualTo("NOT_UNKNOWN");
    assertThat(code(journal.reconcile(sessionId, new CallId("call_nope"), Outcome.FAILED, "ops", "no")))
        .isEqualTo("UNKNOWN_CALL");
    assertThat(await(journal.reconcile(sessionId, unknownId, Outcome.FAILED, "ops", "refund never arrived")).outcome())
        .isEqualTo(Outcome.FAILED);
    assertThat(await(journal.callState(sessionId, unknownId)).record().outcome()).isEqualTo(Outcome.FAILED);
    assertThat(await(queries.events(sessionId, null,
        100))).filteredOn(e -> "call.reconciled".equals(e.getString("type")))
        .singleElement().satisfies(e -> assertThat(e.getString("turn")).isEqualTo("t1"));
  }

  @Test
  void aCompletedEventShowsTheRecordAsFirstJournaledWhichTheStreamDoesNotCopy() {
    Turn t = turn("t1", "refund", "look");
    long epoch = submitted(t);
    CallResult unknown = record(t, 0, Outcome.OUTCOME_UNKNOWN, null, "the provider timed out at step seven");
    CallResult look = record(t, 1, Outcome.SUCCEEDED, "x", null);
    await(journal.callsCompleted(sessionId, epoch, "t1", List.of(unknown), null, null, noText -> null));
    await(completed(journal, sessionId, epoch, "t1", look));
    await(journal.reconcile(sessionId, unknown.callId(), Outcome.SUCCEEDED, "ops", "found at the provider"));

    List<JsonObject> completed = await(queries.events(sessionId, null, 100)).stream()
        .filter(e -> "call.completed".equals(e.getString("type"))).toList();
    JsonObject first = unknown.toJson();
    first.remove("result");
    assertThat(completed.get(0).getJsonObject("data")).isEqualTo(first);
    JsonObject second = look.toJson();
    second.put("resultBytes", second.remove("result").toString().length() + 2);
    assertThat(completed.get(1).getJsonObject("data")).isEqualTo(second);
    assertThat(await(journal.callState(sessionId, unknown.callId())).record().outcome()).isEqualTo(Outcome.SUCCEEDED);
  }

  @Test
  void reconcilingACallOfACompletedTurnLeavesTheTurnAnsweringWhatItAnsweredFirst() {
    Turn t = turn("t1", "look", "refund");
    long epoch = submitted(t);
    CallResult look = record(t, 0, Outcome.SUCCEEDED, "found", null);
    CallResult refund = record(t, 1, Outcome.OUTCOME_UNKNOWN, null, "timed out");
    TurnResult first = new TurnResult(sessionId, "t1", List.of(look, refund));
    assertThat(await(journal.callsCompleted(sessionId, epoch, "t1", List.of(look, refund), first, null,
        noText -> null)).turnCompleted())
        .isTrue();

    await(journal.reconcile(sessionId, t.callId(sessionId, 1), Outcome.SUCCEEDED, "ops", "refund found"));

    assertThat(await(journal.callState(sessionId, t.callId(sessionId, 1))).record().outcome())
        .isEqualTo(Outcome.SUCCEEDED);
    assertThat(await(journal.turnResult(sessionId, "t1")).toJson()).isEqualTo(first.toJson());
    SubmitAnswer again = await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, t)));
    assertThat(again.status()).isEqualTo(SubmitAnswer.Status.COMPLETED);
    assertThat(again.results().toJson()).isEqualTo(first.toJson());
  }

  @Test
  void aCallOfARunningTurnReconciledBeforeTheTurnCompletesIsAnsweredReconciled() {
    Turn t = turn("t1", "refund", "look");
    long epoch = submitted(t);
    CallResult refund = record(t, 0, Outcome.OUTCOME_UNKNOWN, null, "timed out");
    await(completed(journal, sessionId, epoch, "t1", refund));
    CallResult reconciled = await(journal.reconcile(sessionId, t.callId(sessionId, 0), Outcome.FAILED, "ops", "none"));
    CallResult look = record(t, 1, Outcome.SUCCEEDED, "x", null);
    await(journal.callsCompleted(sessionId, epoch, "t1", List.of(look), new TurnResult(sessionId, "t1",
        List.of(reconciled, look)), null, noText -> null));

    assertThat(await(journal.turnResult(sessionId, "t1")).call(0).outcome()).isEqualTo(Outcome.FAILED);
  }

  @Test
  void aGroupCommitJournalsEachCallOnceAndCompletesTheTurnOnlyWhenEveryCallWasNew() {
    Turn t = turn("t1", "a", "b", "c");
    long epoch = submitted(t);
    CallResult a = record(t, 0, Outcome.SUCCEEDED, "first", null);
    await(completed(journal, sessionId, epoch, "t1", a));

    CallResult aAgain = record(t, 0, Outcome.FAILED, null, "second");
    CallResult b = record(t, 1, Outcome.SUCCEEDED, "b", null);
    CallResult c = record(t, 2, Outcome.SUCCEEDED, "c", null);
    TurnResult provisional = new TurnResult(sessionId, "t1", List.of(aAgain, b, c));
    CompletedCalls answer = await(journal.callsCompleted(sessionId, epoch, "t1", List.of(aAgain, b, c),
        provisional, null, noText -> null));
    assertThat(answer.records().get(0).result()).isEqualTo("first");
    assertThat(answer.records().get(1).result()).isEqualTo("b");
    assertThat(answer.turnCompleted()).isFalse();
    assertThat(await(journal.turnResult(sessionId, "t1"))).isNull();

    Turn t2 = turn("t2", "a", "b");
    await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, t2)));
    CallResult x = record(t2, 0, Outcome.SUCCEEDED, "x", null);
    CallResult y = record(t2, 1, Outcome.OUTCOME_UNKNOWN, null, "timeout");
    TurnResult done = new TurnResult(sessionId, "t2", List.of(x, y));
    assertThat(await(journal.callsCompleted(sessionId, epoch, "t2", List.of(x, y), done, null,
        noText -> null)).turnCompleted()).isTrue();
    assertThat(await(journal.turnResult(sessionId, "t2")).toJson()).isEqualTo(done.toJson());
    assertThat(await(journal.inflightTurns(sessionId))).extracting(i -> i.turn().turnId()).containsExactly("t1");

    long newer = await(journal.claim(sessionId, "node-2").map(ClaimedSession::epoch));
    assertThat(newer).isGreaterThan(epoch);
    Throwable fenced = failure(journal.callsCompleted(sessionId, epoch, "t1", List.of(record(t, 2, Outcome.FAILED,
        null, "late")), null, null, noText -> null));
    assertThat(((RatchetException) fenced).code()).isEqualTo("FENCED");
  }

  @Test
  void aTurnIsNotCompletedWhileOneOfItsCallsHasNoOutcomeAndTheStepWritesNothing() {
    Turn t = turn("t1", "a", "b");
    long epoch = submitted(t);
    CallResult a = record(t, 0, Outcome.SUCCEEDED, "ok", null);
    CallResult b = record(t, 1, Outcome.SUCCEEDED, "ok", null);
    // b's outcome was never journaled: the turn's results cannot be put together from the journal
    Throwable err = failure(journal.callsCompleted(sessionId, epoch, "t1", List.of(a), new TurnResult(sessionId,
        "t1", List.of(a, b)), null, noText -> null));
    assertThat(err).hasMessageContaining("INCOMPLETE");
    assertThat(await(journal.callState(sessionId, a.callId())).isDone()).isFalse();
    assertThat(await(journal.turnResult(sessionId, "t1"))).isNull();

    assertThat(await(journal.callsCompleted(sessionId, epoch, "t1", List.of(a, b), new TurnResult(sessionId,
        "t1", List.of(a, b)), null, noText -> null)).turnCompleted()).isTrue();
    assertThat(await(journal.turnResult(sessionId, "t1")).toJson())
        .isEqualTo(new TurnResult(sessionId, "t1", List.of(a, b)).toJson());
  }

  @Test
  void aCompletedEventCarriesTheResultsSizeNotTheResult() {
    Turn t = turn("t1", "a", "b");
    long epoch = submitted(t);
    JsonObject value = new JsonObject().put("text", "héllo \"quoted\"").put("n", List.of(1, 2, 3));
    CallResult a = record(t, 0, Outcome.SUCCEEDED, value, null);
    CallResult b = record(t, 1, Outcome.FAILED, null, "no");
    await(journal.callsCompleted(sessionId, epoch, "t1", List.of(a, b), null, null, noText -> null));
    List<JsonObject> completed = await(queries.events(sessionId, null, 100)).stream()
        .filter(e -> "call.completed".equals(e.getString("type"))).toList();
    assertThat(completed).hasSize(2);
    JsonObject first = completed.get(0).getJsonObject("data");
    assertThat(first.containsKey("result")).isFalse();
    // the size in bytes, as stored: the é takes two
    assertThat(first.getInteger("resultBytes")).isEqualTo(value.encode().getBytes(StandardCharsets.UTF_8).length);
    assertThat(first.getString("outcome")).isEqualTo("succeeded");
    JsonObject second = completed.get(1).getJsonObject("data");
    assertThat(second.containsKey("resultBytes")).isFalse();
    assertThat(second.getString("error")).isEqualTo("no");
    assertThat(await(journal.callState(sessionId, a.callId())).record().result()).isEqualTo(value);
  }

  @Test
  void aCompletedTurnsEventCarriesEachCallsOutcomeWhileTheTurnAnswersItsResultsWhole() {
    long epoch = await(journal.claim(sessionId, "node-1").map(ClaimedSession::epoch));
    JsonObject value = new JsonObject().put("text", "héllo \"quoted\"").put("n", List.of(1, 2, 3));
    // completed with the group commit of its last outcomes; the first call's outcome was journaled a step before
    Turn t1 = turn("t1", "a", "b", "c");
    await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, t1)));
    CallResult a = record(t1, 0, Outcome.SUCCEEDED, value, null);
    CallResult b = record(t1, 1, Outcome.FAILED, null, "no");
    CallResult c = record(t1, 2, Outcome.SUCCEEDED, new JsonArray().add("x").add(2), null);
    await(completed(journal, sessionId, epoch, "t1", a));
    TurnResult r1 = new TurnResult(sessionId, "t1", List.of(a, b, c));
    assertThat(await(journal.callsCompleted(sessionId, epoch, "t1", List.of(b, c), r1, null,
        noText -> null)).turnCompleted()).isTrue();
    // completed on its own, as when every outcome was journaled before
    Turn t2 = turn("t2", "a");
    await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, t2)));
    CallResult d = record(t2, 0, Outcome.SUCCEEDED, "done", null);
    await(completed(journal, sessionId, epoch, "t2", d));
    TurnResult r2 = new TurnResult(sessionId, "t2", List.of(d));
    await(journal.turnCompleted(sessionId, epoch, r2));

    List<JsonObject> completed = await(queries.events(sessionId, null, 100)).stream()
        .filter(e -> "turn.completed".equals(e.getString("type"))).toList();
    assertThat(completed).extracting(e -> e.getString("turn")).containsExactly("t1", "t2");
    JsonObject data = completed.get(0).getJsonObject("data");
    assertThat(data.getString("sessionId")).isEqualTo(sessionId);
    assertThat(data.getString("turnId")).isEqualTo("t1");
    assertThat(data.containsKey("results")).isFalse();
    assertThat(data.getJsonArray("outcomes").getList()).containsExactly("succeeded", "failed", "succeeded");
    JsonObject alone = completed.get(1).getJsonObject("data");
    assertThat(alone.containsKey("results")).isFalse();
    assertThat(alone.getJsonArray("outcomes").getList()).containsExactly("succeeded");

    // the turn answers its results whole: a group commit's turn from its calls' records; a turn
    // completed on its own from the results it was given
    for (TurnResult r : List.of(r1, r2)) {
      assertThat(await(journal.turnResult(sessionId, r.turnId())).toJson()).isEqualTo(r.toJson());
    }
    assertThat(await(journal.turnCompleted(sessionId, epoch, new TurnResult(sessionId, "t1",
        List.of(record(t1, 0, Outcome.FAILED, null, "other"))))).toJson()).isEqualTo(r1.toJson());
    SubmitAnswer again = await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, t1)));
    assertThat(again.status()).isEqualTo(SubmitAnswer.Status.COMPLETED);
    assertThat(again.results().call(0).result()).isEqualTo(value);
  }

  @Test
  void aWriteStartedAlongWithAnotherStepIsJournaledStartedOnlyWhenThatStepIsNew() {
    long epoch = await(journal.claim(sessionId, "node-1").map(ClaimedSession::epoch));
    Turn t = turn("t1", "a", "b", "c");
    CallId a = t.callId(sessionId, 0);
    CallId b = t.callId(sessionId, 1);
    SubmitAnswer submitted = await(journal.submitTurn(new TurnSubmission(sessionId, epoch, AGENT, null, null, t,
        null, null, false, new CallStart(a, 1, new JsonObject().put("attempt", 1)))));
    assertThat(submitted.status()).isEqualTo(SubmitAnswer.Status.NEW);
    assertThat(submitted.writeStarted()).isTrue();
    assertThat(await(journal.callState(sessionId, a)).wasStarted()).isTrue();
    assertThat(await(queries.events(sessionId, null, 100))).extracting(e -> e.getString("type"))
        .containsExactly("session.claimed", "turn.submitted", "call.started");

    SubmitAnswer again = await(journal.submitTurn(new TurnSubmission(sessionId, epoch, AGENT, null, null, t,
        null, null, false, new CallStart(b, 1, new JsonObject()))));
    assertThat(again.status()).isEqualTo(SubmitAnswer.Status.RUNNING);
    assertThat(again.writeStarted()).isFalse();
    assertThat(await(journal.callState(sessionId, b)).wasStarted()).isFalse();

    CallResult aDone = record(t, 0, Outcome.SUCCEEDED, "a", null);
    CompletedCalls first = await(journal.callsCompleted(sessionId, epoch, "t1", List.of(aDone), null,
        new CallStart(b, 1, new JsonObject()), noText -> null));
    assertThat(first.nextWriteStarted()).isTrue();
    assertThat(await(journal.callState(sessionId, b)).wasStarted()).isTrue();

    // a replayed step (its outcome was journaled already) starts nothing
    CallId c = t.callId(sessionId, 2);
    CompletedCalls replay = await(journal.callsCompleted(sessionId, epoch, "t1", List.of(aDone), null,
        new CallStart(c, 1, new JsonObject()), noText -> null));
    assertThat(replay.nextWriteStarted()).isFalse();
    assertThat(await(journal.callState(sessionId, c)).wasStarted()).isFalse();

    long newer = await(journal.claim(sessionId, "node-2").map(ClaimedSession::epoch));
    assertThat(newer).isGreaterThan(epoch);
    Throwable fenced = failure(journal.callsCompleted(sessionId, epoch, "t1", List.of(record(t, 1,
        Outcome.SUCCEEDED, "b", null)), null, new CallStart(c, 1, new JsonObject()), noText -> null));
    assertThat(((RatchetException) fenced).code()).isEqualTo("FENCED");
    assertThat(await(journal.callState(sessionId, c)).wasStarted()).isFalse();
  }

  @Test
  void aGroupCommitOfThousandsOfCallsJournalsEveryCallsEvent() {
    long epoch = await(journal.claim(sessionId, "node-1").map(ClaimedSession::epoch));
    String[] tools = new String[2_500];
    java.util.Arrays.fill(tools, "read");
    Turn t = turn("t1", tools);
    await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, t)));
    List<CallResult> records = new ArrayList<>();
    for (int i = 0; i < tools.length; i++) {
      records.add(record(t, i, Outcome.SUCCEEDED, i, null));
    }
    TurnResult result = new TurnResult(sessionId, "t1", records);
    assertThat(await(journal.callsCompleted(sessionId, epoch, "t1", records, result, null,
        noText -> null)).turnCompleted()).isTrue();

    List<JsonObject> completed = await(queries.events(sessionId, null, 10_000)).stream()
        .filter(e -> "call.completed".equals(e.getString("type"))).toList();
    assertThat(completed).extracting(e -> e.getJsonObject("data").getInteger("index"))
        .containsExactlyElementsOf(java.util.stream.IntStream.range(0, tools.length).boxed().toList());
    assertThat(await(journal.turnResult(sessionId, "t1")).toJson()).isEqualTo(result.toJson());
  }

  @Test
  void aStartedCallKnowsWhenItStartedAndItsAttemptAndSoDoesItsRecord() {
    Turn t = turn("t1", "a");
    long epoch = submitted(t);
    CallId id = t.callId(sessionId, 0);
    long before = System.currentTimeMillis();
    await(journal.callStarted(sessionId, epoch, "t1", new CallStart(id, 2, new JsonObject())));
    CallState state = await(journal.callState(sessionId, id));
    assertThat(state.attempts()).isEqualTo(2);
    assertThat(state.startedAt()).isBetween(before - 1_000, System.currentTimeMillis() + 1_000);
    assertThat(await(journal.inflightTurns(sessionId)).get(0).calls().get(id.value()).startedAt())
        .isEqualTo(state.startedAt());

    CallResult done = new CallResult(0, id, "a", null, EffectClass.IDEMPOTENT_WRITE, Outcome.SUCCEEDED, "ok", null,
        2, false, false, null, 5, null, 900);
    await(completed(journal, sessionId, epoch, "t1", done));
    assertThat(await(journal.callState(sessionId, id)).record().approvalWaitMillis()).isEqualTo(900);
  }

  @Test
  void startingACallThatAlreadyHasAnOutcomeAnswersThatOutcomeAndStartsNothing() {
    Turn t = turn("t1", "a");
    long epoch = submitted(t);
    CallId id = t.callId(sessionId, 0);
    assertThat(await(journal.callStarted(sessionId, epoch, "t1", new CallStart(id, 1, new JsonObject())))).isNull();
    assertThat(await(journal.callState(sessionId, id)).wasStarted()).isTrue();
    CallResult done = record(t, 0, Outcome.SUCCEEDED, "ok", null);
    await(completed(journal, sessionId, epoch, "t1", done));
    int before = eventCount();

    CallResult answer = await(journal.callStarted(sessionId, epoch, "t1", new CallStart(id, 2, new JsonObject())));
    assertThat(answer).isNotNull();
    assertThat(answer.toJson()).isEqualTo(done.toJson());
    CallState state = await(journal.callState(sessionId, id));
    assertThat(state.state().wireName()).isEqualTo("done");
    assertThat(state.attempts()).isEqualTo(1);
    assertThat(eventCount()).isEqualTo(before);
  }

  /**
   * Submits {@code open}, a turn {@code closed} that completes, then {@code later}; {@code open}'s
   * first call is started, its second done and its third awaiting approval.
   */
  private void submitWithCallsInEachState(long epoch, Turn open, Turn... later) {
    Turn closed = turn("closed", "a");
    await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, open)));
    await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, closed)));
    for (Turn t : later) {
      await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, t)));
    }
    await(journal.turnCompleted(sessionId, epoch, new TurnResult(sessionId, "closed",
        List.of(record(closed, 0, Outcome.SUCCEEDED, "x", null)))));
    String turnId = open.turnId();
    await(journal.callStarted(sessionId, epoch, turnId, new CallStart(open.callId(sessionId, 0), 1, new JsonObject())));
    await(completed(journal, sessionId, epoch, turnId, record(open, 1, Outcome.SUCCEEDED, "done", null)));
    assertThat(await(journal.approvalRequested(epoch, approvalRequest(open, 2)))).isEqualTo("pending");
  }

  @Test
  void inflightTurnsListsSubmittedButNotCompletedTurnsWithEachCallsState() {
    long epoch = await(journal.claim(sessionId, "node-1").map(ClaimedSession::epoch));
    Turn open = turn("open", "a", "b", "c", "d");
    submitWithCallsInEachState(epoch, open);

    List<InflightTurn> inflight = await(journal.inflightTurns(sessionId));
    assertThat(inflight).hasSize(1);
    InflightTurn t = inflight.get(0);
    assertThat(t.turn()).isEqualTo(open);
    assertThat(t.submittedAt()).isPositive();
    assertThat(t.calls()).hasSize(4);
    CallState started = t.calls().get(open.callId(sessionId, 0).value());
    assertThat(started.wasStarted()).isTrue();
    assertThat(started.attempts()).isEqualTo(1);
    assertThat(started.isDone()).isFalse();
    CallState done = t.calls().get(open.callId(sessionId, 1).value());
    assertThat(done.state().wireName()).isEqualTo("done");
    assertThat(done.record().result()).isEqualTo("done");
    CallState awaiting = t.calls().get(open.callId(sessionId, 2).value());
    assertThat(awaiting.state().wireName()).isEqualTo("awaiting_approval");
    assertThat(awaiting.approval().status()).isEqualTo("pending");
    assertThat(awaiting.argumentsHash()).isEqualTo(IdempotencyKey.argumentsHash(open.calls().get(2).arguments()));
    assertThat(t.calls().get(open.callId(sessionId, 3).value()).state().wireName()).isEqualTo("new");
  }

  @Test
  void aClaimFencesTheOldOwnerAndAnswersWhatInflightTurnsAnswers() {
    long old = await(journal.claim(sessionId, "node-1").map(ClaimedSession::epoch));
    Turn first = turn("first", "a", "b", "c");
    submitWithCallsInEachState(old, first, turn("second", "a"));
    List<InflightTurn> expected = await(journal.inflightTurns(sessionId));
    int before = eventCount();

    ClaimedSession claimed = await(journal.claim(sessionId, "node-2"));

    assertThat(claimed.epoch()).isEqualTo(old + 1);
    assertThat(await(queries.currentEpoch(sessionId))).isEqualTo(claimed.epoch());
    assertThat(await(queries.sessionInfo(sessionId)).getString("owner")).isEqualTo("node-2");
    assertThat(await(queries.events(sessionId, null, 10_000)).get(before).getString("type"))
        .isEqualTo("session.claimed");
    assertThat(claimed.inflight()).extracting(t -> t.turn().turnId()).containsExactly("first", "second");
    assertThat(claimed.inflight()).isEqualTo(expected);
    CallState started = claimed.inflight().get(0).calls().get(first.callId(sessionId, 0).value());
    assertThat(started.wasStarted()).isTrue();
    assertThat(claimed.inflight().get(0).calls().get(first.callId(sessionId, 1).value()).record().result())
        .isEqualTo("done");
    assertThat(claimed.inflight().get(0).calls().get(first.callId(sessionId, 2).value()).approval().status())
        .isEqualTo("pending");
    // the old owner is fenced
    assertThat(code(journal.submitTurn(TurnSubmission.of(sessionId, old, AGENT, turn("late",
        "a"))))).isEqualTo("FENCED");
  }

  @Test
  void claimingManySessionsAtOnceAnswersEachItsOwnTurns() {
    List<String> ids = sessionIds(1200);
    for (int i = 0; i < ids.size(); i++) {
      String id = ids.get(i);
      long epoch = await(journal.claim(id, "node-1").map(ClaimedSession::epoch));
      await(journal.submitTurn(TurnSubmission.of(id, epoch, AGENT, turn("t-" + i, "a", "b"))));
    }
    List<Future<ClaimedSession>> all = new ArrayList<>();
    ids.forEach(id -> all.add(journal.claim(id, "node-2")));
    await(Future.all(all));
    for (int i = 0; i < ids.size(); i++) {
      ClaimedSession c = all.get(i).result();
      assertThat(c.epoch()).isEqualTo(2);
      assertThat(c.inflight()).extracting(t -> t.turn().turnId()).containsExactly("t-" + i);
      assertThat(c.inflight().get(0).calls()).containsOnlyKeys(turn("t-" + i, "a", "b").callId(ids.get(i), 0).value(),
          turn("t-" + i, "a", "b").callId(ids.get(i), 1).value());
    }
  }

  @Test
  void claimingASessionWithNothingInFlightAnswersNoTurn() {
    ClaimedSession claimed = await(journal.claim(sessionId, "node-1"));
    assertThat(claimed.epoch()).isEqualTo(1);
    assertThat(claimed.inflight()).isEmpty();
  }

  @Test
  void aRequestedApprovalIsListedAndDecisionsAreCheckedBeforeTheyCount() {
    Turn t = turn("t1", "refund");
    long epoch = submitted(t);
    ApprovalRequest request = approvalRequest(t, 0);
    assertThat(await(journal.approvalRequested(epoch, request))).isEqualTo("pending");
    assertThat(await(journal.approvalRequested(epoch, request))).as("asking twice keeps the first").isEqualTo("pending");
    assertThat(pending()).extracting(ApprovalRequest::callId).containsExactly(request.callId());
    assertThat(pending().get(0).argumentsHash()).isEqualTo(request.argumentsHash());

    assertThat(await(journal.approvalDecided(sessionId, request.callId(),
        new Verdict("other-hash", "approved", "eve", null))))
        .isEqualTo(DecisionAnswer.STALE);
    assertThat(await(journal.approvalDecided(sessionId, new CallId("call_nope"),
        new Verdict(request.argumentsHash(), "approved", "eve",
        null)))).isEqualTo(DecisionAnswer.UNKNOWN_CALL);
    assertThat(pending()).as("refused decisions leave it pending").hasSize(1);

    assertThat(await(journal.approvalDecided(sessionId, request.callId(),
        new Verdict(request.argumentsHash(), "approved", "alice",
        "ok")))).isEqualTo(DecisionAnswer.ACCEPTED);
    assertThat(pending()).isEmpty();
    assertThat(await(journal.approvalDecided(sessionId, request.callId(),
        new Verdict(request.argumentsHash(), "rejected", "eve",
        "no")))).isEqualTo(DecisionAnswer.ALREADY_DECIDED);
    CallState state = await(journal.callState(sessionId, request.callId()));
    assertThat(state.approval().status()).isEqualTo("approved");
    assertThat(state.approval().approver()).isEqualTo("alice");
    assertThat(await(journal.approvalRequested(epoch, request))).isEqualTo("approved");
    assertThat(pending()).as("asking after the decision does not list it again").isEmpty();
  }

  @Test
  void anEditedApprovalIsJournaledWithTheOriginalAndEditedArgumentsWhoEditedAndWhy() {
    Turn t = turn("t1", "refund");
    long epoch = submitted(t);
    ApprovalRequest request = asked(epoch, t, 0);
    assertThat(await(journal.approvalRequest(sessionId, request.callId())).toJson()).isEqualTo(request.toJson());
    JsonObject edited = new JsonObject().put("n", 7).put("note", "{}").put("empty", new JsonObject())
        .put("amount", 12.5);

    assertThat(await(journal.approvalDecided(sessionId, request.callId(),
        new Verdict("other-hash", "approved", "alice", "x",
        edited)))).as("an edit still names the arguments it was shown").isEqualTo(DecisionAnswer.STALE);
    assertThat(await(journal.callState(sessionId, request.callId())).approval().edited()).isFalse();

    assertThat(await(journal.approvalDecided(sessionId, request.callId(),
        new Verdict(request.argumentsHash(), "approved", "alice", "customer asked for 7",
        edited)))).isEqualTo(DecisionAnswer.ACCEPTED);
    CallState state = await(journal.callState(sessionId, request.callId()));
    assertThat(state.approval().editedArguments()).isEqualTo(edited);
    assertThat(state.approval().originalArgumentsHash()).isEqualTo(request.argumentsHash());
    assertThat(state.approval().approver()).isEqualTo("alice");
    assertThat(state.approval().reason()).isEqualTo("customer asked for 7");
    assertThat(state.approval().toJson().getString("editedBy")).isEqualTo("alice");
    assertThat(await(journal.approvalRequest(sessionId, request.callId())).arguments())
        .as("the request keeps the arguments the model sent").isEqualTo(t.calls().get(0).arguments());

    JsonObject decided = await(queries.events(sessionId, null, 100)).stream()
        .filter(e -> "approval.decided".equals(e.getString("type"))).findFirst().orElseThrow().getJsonObject("data");
    assertThat(decided.getJsonObject("editedArguments")).isEqualTo(edited);
    assertThat(decided.getString("originalArgumentsHash")).isEqualTo(request.argumentsHash());
    assertThat(decided.getString("editedBy")).isEqualTo("alice");
    assertThat(decided.getString("reason")).isEqualTo("customer asked for 7");

    // the call's record carries the edit, so whoever reads the result knows the arguments changed
    CallResult r = await(completed(journal, sessionId, epoch, "t1", new CallResult(0, request.callId(), "refund",
        null, EffectClass.NON_IDEMPOTENT_WRITE, Outcome.SUCCEEDED, "done", null, 1, false, false, state.approval(),
        5, null)));
    JsonObject json = await(journal.callState(sessionId, request.callId())).record().toJson();
    assertThat(json.getJsonObject("edited")).isEqualTo(new JsonObject().put("by", "alice")
        .put("reason", "customer asked for 7").put("arguments", edited));
    assertThat(r.approval().editedArguments()).isEqualTo(edited);
  }

  @Test
  void aRejectionCarriesNoEditedArguments() {
    Turn t = turn("t1", "refund");
    long epoch = submitted(t);
    ApprovalRequest request = asked(epoch, t, 0);
    assertThat(await(journal.approvalDecided(sessionId, request.callId(),
        new Verdict(request.argumentsHash(), "rejected", "bob", "no", new JsonObject().put("n",
        9))))).isEqualTo(DecisionAnswer.ACCEPTED);
    assertThat(await(journal.callState(sessionId, request.callId())).approval().edited()).isFalse();
  }

  @Test
  void aDecisionArrivingAfterExpiryIsRefusedAndTheApprovalIsJournaledExpired() {
    Turn t = turn("t1", "refund");
    long epoch = submitted(t);
    ApprovalRequest asked = approvalRequest(t, 0);
    ApprovalRequest request = new ApprovalRequest(asked.agent(), asked.sessionId(), asked.turnId(), asked.callId(),
        asked.tool(), asked.effectClass(), asked.arguments(), asked.argumentsHash(), asked.askedBecause(),
        asked.requestedAt(), System.currentTimeMillis() + 50);
    await(journal.approvalRequested(epoch, request));
    assertThat(pending()).hasSize(1);
    sleepMillis(100);

    assertThat(await(journal.approvalDecided(sessionId, request.callId(),
        new Verdict(request.argumentsHash(), "approved", "alice",
        null)))).isEqualTo(DecisionAnswer.EXPIRED);
    // fails closed: the journal and the inbox agree that nobody can approve it any more
    assertThat(pending()).isEmpty();
    assertThat(await(journal.callState(sessionId, request.callId())).approval().status()).isEqualTo("expired");
    assertThat(await(journal.approvalDecided(sessionId, request.callId(),
        new Verdict(request.argumentsHash(), "approved", "alice",
        null)))).isEqualTo(DecisionAnswer.ALREADY_DECIDED);
  }

  private static void sleepMillis(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  private List<ApprovalRequest> pending() {
    return await(queries.pendingApprovals(1000)).stream().filter(r -> r.sessionId().equals(sessionId)).toList();
  }

  @Test
  void aPendingApprovalSurvivesClosingAndReopeningTheJournal() {
    Turn t = turn("t1", "refund");
    long epoch = submitted(t);
    ApprovalRequest request = asked(epoch, t, 0);
    journal.close();

    journal = open(vertx);
    queries = JournalPorts.queries(journal);
    List<ApprovalRequest> pending = pending();
    assertThat(pending).hasSize(1);
    assertThat(pending.get(0).toJson()).isEqualTo(request.toJson());
    assertThat(await(journal.callState(sessionId, request.callId())).approval().status()).isEqualTo("pending");
    assertThat(await(journal.approvalDecided(sessionId, request.callId(),
        new Verdict(request.argumentsHash(), "approved", "alice",
        null)))).isEqualTo(DecisionAnswer.ACCEPTED);
  }
}
