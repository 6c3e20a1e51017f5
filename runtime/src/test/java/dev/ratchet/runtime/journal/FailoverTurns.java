package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

import static dev.ratchet.runtime.testing.Await.await;

/** The turns the failover tests write before they kill a master, to find each one again after the promotion. */
final class FailoverTurns {

  static final String AGENT = "test-agent";

  private FailoverTurns() {
  }

  /** The one turn of {@code session}: a single write whose arguments name the session. */
  static Turn turnOf(String session) {
    return new Turn("t1", List.of(new ToolCall("write", new JsonObject().put("session", session))));
  }

  /** Claims the sessions {@code prefix0..prefix(count-1)} and submits each its turn; answers them once all are acknowledged. */
  static List<String> submitted(SessionJournal journal, String prefix, int count) {
    List<String> acknowledged = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String session = prefix + i;
      long epoch = await(journal.claim(session, "node-1").map(ClaimedSession::epoch));
      await(journal.submitTurn(TurnSubmission.of(session, epoch, AGENT, turnOf(session))));
      acknowledged.add(session);
    }
    return acknowledged;
  }
}
