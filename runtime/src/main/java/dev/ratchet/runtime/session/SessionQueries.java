package dev.ratchet.runtime.session;

import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.RatchetQueries;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.journal.JournalQueries;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/** {@link RatchetQueries} over a journal's read side and the registered agents. */
public final class SessionQueries implements RatchetQueries {

  private final JournalQueries journal;
  private final AgentTable agents;

  public SessionQueries(JournalQueries journal, AgentTable agents) {
    this.journal = journal;
    this.agents = agents;
  }

  @Override
  public List<String> agents() {
    return agents.names();
  }

  @Override
  public ToolCatalog catalog(String agent) {
    return agents.catalog(agent);
  }

  @Override
  public Future<List<String>> sessions(int offset, int limit) {
    return journal.recentSessions(offset, limit);
  }

  @Override
  public Future<JsonObject> session(String sessionId) {
    return journal.sessionInfo(sessionId);
  }

  @Override
  public Future<List<JsonObject>> events(String sessionId, String afterId, int count) {
    return journal.events(sessionId, afterId, count);
  }

  @Override
  public Future<TurnResult> turnResult(String sessionId, String turnId) {
    return journal.turnResult(sessionId, turnId);
  }

  @Override
  public Future<ApprovalRequest> approvalRequest(String sessionId, CallId callId) {
    return journal.approvalRequest(sessionId, callId);
  }

  @Override
  public Future<JsonObject> conversation(String sessionId) {
    return Conversations.of(journal, sessionId);
  }
}
