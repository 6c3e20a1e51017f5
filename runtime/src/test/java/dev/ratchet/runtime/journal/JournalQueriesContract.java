package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The TCK of the journal's read side, {@link JournalQueries}: what views read back of the steps
 * journaled (events in order and by page, agents, sessions with work in flight, turns' status and
 * spec, where a turn runs). Every store that offers a read side runs it with {@link #open}.
 */
public abstract class JournalQueriesContract extends JournalFixture {

  @Test
  void onlySessionsWithATurnInFlightOrAnOpenRoundHaveWorkInFlight() {
    Turn t = turn("t1", "a");
    long epoch = submitted(t);
    String looping = sessionId + "-loop";
    String idle = sessionId + "-idle";
    String unknown = sessionId + "-none";
    long loopEpoch = await(journal.claim(looping, "node-1").map(ClaimedSession::epoch));
    await(journal.messageUser(new UserMessage(looping, loopEpoch, AGENT, null, null, "m1",
        new JsonObject().put("type", "user")
        .put("messageId", "m1").put("text", "hi"), new JsonObject())));
    long idleEpoch = await(journal.claim(idle, "node-1").map(ClaimedSession::epoch));
    await(journal.messageUser(new UserMessage(idle, idleEpoch, AGENT, null, null, "m1",
        new JsonObject().put("type", "user")
        .put("messageId", "m1").put("text", "hi"), new JsonObject())));
    await(journal.roundEnded(idle, idleEpoch, "c1", "message.assistant", new JsonObject().put("type", "end")
        .put("covers", 1L).put("text", "hello"), new JsonObject()));
    List<String> all = List.of(sessionId, looping, idle, unknown);
    assertThat(await(queries.withWorkInFlight(all))).containsExactlyInAnyOrder(sessionId, looping);

    await(journal.turnCompleted(sessionId, epoch, new TurnResult(sessionId, "t1",
        List.of(record(t, 0, Outcome.SUCCEEDED, "done", null)))));
    // a message that came while the last round was answered: the end does not cover it
    await(journal.messageUser(new UserMessage(idle, idleEpoch, AGENT, null, null, "m2",
        new JsonObject().put("type", "user")
        .put("messageId", "m2").put("text", "and?"), new JsonObject())));
    await(journal.roundEnded(idle, idleEpoch, "c2", "message.assistant", new JsonObject().put("type", "end")
        .put("covers", 2L).put("text", "again"), new JsonObject()));
    assertThat(await(queries.withWorkInFlight(all))).containsExactlyInAnyOrder(looping, idle);
  }

  @Test
  void aStepsEventsReadBackInOrderFromAfterAnyOfThem() {
    Turn t = fourSteps();
    CallId w1 = t.callId(sessionId, 2);
    CallId w2 = t.callId(sessionId, 3);
    List<CallId> step = List.of(t.callId(sessionId, 0), t.callId(sessionId, 1));

    List<JsonObject> all = await(queries.events(sessionId, null, 100));
    assertThat(all).extracting(e -> e.getString("type")).containsExactly("session.claimed", "turn.submitted",
        "call.started", "call.completed", "call.completed", "call.completed", "call.started", "call.completed",
        "turn.completed");
    assertThat(all).extracting(e -> e.getString("call")).containsExactly(null, null, w1.value(),
        step.get(0).value(), step.get(1).value(), w1.value(), w2.value(), w2.value(), null);
    assertThat(all.subList(1, all.size())).allMatch(e -> "t1".equals(e.getString("turn")) && e.getLong("at") > 0);
    assertThat(all).extracting(e -> e.getString("id")).doesNotHaveDuplicates();
    assertThat(all.get(1).getJsonObject("data")).isEqualTo(t.toJson());

    // a reader that pages, however small its pages, sees every event once, in order
    for (int page = 1; page <= 4; page++) {
      List<JsonObject> read = new ArrayList<>();
      String after = null;
      while (true) {
        List<JsonObject> got = await(queries.events(sessionId, after, page));
        assertThat(got.size()).isLessThanOrEqualTo(page);
        read.addAll(got);
        if (got.size() < page) {
          break;
        }
        after = got.get(got.size() - 1).getString("id");
      }
      assertThat(read).as("pages of %d", page).isEqualTo(all);
    }
  }

  @Test
  void aTurnsSubmittedEventCarriesItsSpec() {
    long epoch = await(journal.claim(sessionId, "node-1").map(ClaimedSession::epoch));
    String text = "a long message for the channel ".repeat(40);
    Turn t = new Turn("t1", List.of(new ToolCall("post", new JsonObject().put("text", text))));
    await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, t)));

    JsonObject submitted = await(queries.events(sessionId, null, 10)).stream()
        .filter(e -> "turn.submitted".equals(e.getString("type"))).findFirst().orElseThrow();
    assertThat(submitted.getJsonObject("data")).isEqualTo(t.toJson());
    assertThat(submitted.getString("turn")).isEqualTo("t1");
  }

  @Test
  void sessionAgentsReadsTheAgentOfEverySessionTheJournalKnows() {
    List<String> ids = sessionIds(1100);
    for (int i = 0; i < ids.size(); i++) {
      String id = ids.get(i);
      if (i % 3 != 0) {
        long epoch = await(journal.claim(id, "node-1").map(ClaimedSession::epoch));
        await(journal.submitTurn(TurnSubmission.of(id, epoch, i % 3 == 1 ? AGENT : "other", turn("t", "a"))));
      }
    }
    java.util.Map<String, String> agents = await(queries.sessionAgents(ids));
    for (int i = 0; i < ids.size(); i++) {
      if (i % 3 == 0) {
        assertThat(agents).doesNotContainKey(ids.get(i));
      } else {
        assertThat(agents).containsEntry(ids.get(i), i % 3 == 1 ? AGENT : "other");
      }
    }
  }

  @Test
  void aSessionTheJournalDoesNotKnowReadsAsEmptyNeverAsAFailure() {
    String unknown = sessionId + "-none";
    assertThat(await(queries.sessionInfo(unknown))).isEmpty();
    assertThat(await(queries.events(unknown, null, 10))).isEmpty();
    assertThat(await(queries.conversation(unknown))).isEmpty();
    assertThat(await(queries.inflightTurns(unknown))).isEmpty();
    assertThat(await(queries.currentEpoch(unknown))).isZero();
    assertThat(await(queries.turnResult(unknown, "t1"))).isNull();
    assertThat(await(queries.turnStatus(unknown, "t1"))).isNull();
    assertThat(await(queries.submittedTurn(unknown, "t1"))).isNull();
    assertThat(await(queries.callState(unknown, new dev.ratchet.runtime.CallId("c1"))).state().wireName())
        .isEqualTo("new");
  }

  @Test
  void aTurnReadsRunningThenCompletedWithTheCallsItWasSubmittedWith() {
    Turn t = turn("t1", "a", "b");
    long epoch = submitted(t);
    assertThat(await(queries.turnStatus(sessionId, "t1"))).isEqualTo("running");
    assertThat(await(queries.submittedTurn(sessionId, "t1")).toJson()).isEqualTo(t.toJson());
    assertThat(await(queries.currentEpoch(sessionId))).isEqualTo(epoch);
    assertThat(await(queries.sessionInfo(sessionId)).getString("agent")).isEqualTo(AGENT);

    await(journal.turnCompleted(sessionId, epoch, new TurnResult(sessionId, "t1", List.of(
        record(t, 0, Outcome.SUCCEEDED, "x", null), record(t, 1, Outcome.SUCCEEDED, "y", null)))));
    assertThat(await(queries.turnStatus(sessionId, "t1"))).isEqualTo("completed");
    assertThat(await(queries.turnResult(sessionId, "t1")).calls()).extracting(CallResult::result)
        .containsExactly("x", "y");
    assertThat(await(queries.recentSessions(0, 10_000))).contains(sessionId);
    assertThat(await(queries.activeSessions())).contains(sessionId);
  }

  @Test
  void aTurnsHomeIsTheFirstSessionItWasPlacedIn() {
    assertThat(await(queries.turnHome("caller-1", AGENT, "t1", sessionId))).isEqualTo(sessionId);
    assertThat(await(queries.turnHome("caller-1", AGENT, "t1", sessionId + "-later"))).isEqualTo(sessionId);
    assertThat(await(queries.turnHome("caller-2", AGENT, "t1", sessionId + "-other")))
        .as("another caller's turn of the same id has a home of its own").isEqualTo(sessionId + "-other");
  }
}
