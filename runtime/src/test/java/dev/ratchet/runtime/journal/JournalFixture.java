package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.IdempotencyKey;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.testing.JournalStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static dev.ratchet.runtime.testing.Await.await;
import static dev.ratchet.runtime.testing.Await.failure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the journal TCKs share: a journal of the store under test ({@link #open}), its read side,
 * a fresh session id per test, and the turns, records and steps the tests journal.
 */
public abstract class JournalFixture {

  protected static final String AGENT = "test-agent";

  protected Vertx vertx;
  protected SessionJournal journal;
  /** The read side of the journal's store, through which the tests check what a step journaled. */
  protected JournalQueries queries;
  protected String sessionId;
  private JournalStore store;

  /**
   * A journal of the store under test, which the test class's extension resolves as a {@link JournalStore};
   * one opened after another (closed or not) is a client of the same store, as a node restarted on the
   * same Redis is, and sees what the other journaled.
   */
  protected SessionJournal open(Vertx vertx) {
    return store.open(vertx);
  }

  @BeforeEach
  protected void setUp(JournalStore store) {
    this.store = store;
    vertx = Vertx.vertx();
    journal = open(vertx);
    queries = JournalPorts.queries(journal);
    sessionId = "s-" + UUID.randomUUID();
  }

  @AfterEach
  protected void tearDown() {
    journal.close();
    await(vertx.close());
  }

  /** {@code count} session ids of this test's own: its session id suffixed {@code -0}, {@code -1} and so on. */
  protected List<String> sessionIds(int count) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ids.add(sessionId + "-" + i);
    }
    return ids;
  }

  protected static Turn turn(String turnId, String... tools) {
    List<ToolCall> calls = new ArrayList<>();
    for (int i = 0; i < tools.length; i++) {
      calls.add(new ToolCall(tools[i], new JsonObject().put("n", i)));
    }
    return new Turn(turnId, calls);
  }

  protected CallResult record(Turn turn, int index, Outcome outcome, Object value, String error) {
    return new CallResult(index, turn.callId(sessionId, index), turn.calls().get(index).name(), null,
        EffectClass.NON_IDEMPOTENT_WRITE, outcome, value, error, 1, false, false, null, 5, null);
  }

  protected ApprovalRequest approvalRequest(Turn turn, int index) {
    JsonObject args = turn.calls().get(index).arguments();
    return new ApprovalRequest(AGENT, sessionId, turn.turnId(), turn.callId(sessionId, index),
        turn.calls().get(index).name(), EffectClass.NON_IDEMPOTENT_WRITE, args, IdempotencyKey.argumentsHash(args),
        "approval required by tool", System.currentTimeMillis(), 0);
  }

  /** Claims the session as {@code node-1} and submits the turn; the epoch it was submitted in. */
  protected long submitted(Turn turn) {
    long epoch = await(journal.claim(sessionId, "node-1").map(ClaimedSession::epoch));
    await(journal.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, turn)));
    return epoch;
  }

  /** Journals the approval request of the turn's call at {@code index}; that request. */
  protected ApprovalRequest asked(long epoch, Turn turn, int index) {
    ApprovalRequest request = approvalRequest(turn, index);
    await(journal.approvalRequested(epoch, request));
    return request;
  }

  protected int eventCount() {
    return await(queries.events(sessionId, null, 10_000)).size();
  }

  protected static String code(Future<?> f) {
    Throwable err = failure(f);
    assertThat(err).isInstanceOf(RatchetException.class);
    return ((RatchetException) err).code();
  }

  /**
   * Four steps after a claim, of a turn of two reads and two writes: the submit with the first
   * write's start, a group commit with the next write's start, and a group commit completing the turn.
   */
  protected Turn fourSteps() {
    long epoch = await(journal.claim(sessionId, "node-1").map(ClaimedSession::epoch));
    Turn t = turn("t1", "r1", "r2", "w1", "w2");
    CallId w1 = t.callId(sessionId, 2);
    CallId w2 = t.callId(sessionId, 3);
    await(journal.submitTurn(new TurnSubmission(sessionId, epoch, AGENT, null, null, t, null, null, false,
        new CallStart(w1, 1, new JsonObject().put("attempt", 1)))));
    List<CallResult> step = List.of(record(t, 0, Outcome.SUCCEEDED, "r1", null),
        record(t, 1, Outcome.SUCCEEDED, "r2", null), record(t, 2, Outcome.SUCCEEDED, "w1", null));
    await(journal.callsCompleted(sessionId, epoch, "t1", step, null, new CallStart(w2, 1, new JsonObject()),
        noText -> null));
    CallResult last = record(t, 3, Outcome.FAILED, null, "no");
    await(journal.callsCompleted(sessionId, epoch, "t1", List.of(last), new TurnResult(sessionId, "t1",
        List.of(step.get(0), step.get(1), step.get(2), last)), null, noText -> null));
    return t;
  }

  /** Journals one call's outcome, a group commit of one (J1); the record journaled, an earlier one if the call had it. */
  static Future<CallResult> completed(SessionJournal journal, String sessionId, long epoch, String turnId,
                                      CallResult record) {
    return journal.callsCompleted(sessionId, epoch, turnId, List.of(record), null, null, result -> null)
        .map(step -> step.records().get(0));
  }
}
