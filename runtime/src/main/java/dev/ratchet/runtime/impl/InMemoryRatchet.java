package dev.ratchet.runtime.impl;

import dev.ratchet.runtime.Accepted;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.DecisionResult;
import dev.ratchet.runtime.MessageRequest;
import dev.ratchet.runtime.Ratchet;
import dev.ratchet.runtime.RatchetClock;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.RatchetQueries;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.TurnRequest;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.agent.AgentReply;
import dev.ratchet.runtime.engine.EngineOptions;
import dev.ratchet.runtime.journal.InMemoryJournal;
import dev.ratchet.runtime.session.AgentTable;
import dev.ratchet.runtime.session.SessionHooks;
import dev.ratchet.runtime.session.SessionIntake;
import dev.ratchet.runtime.session.SessionManager;
import dev.ratchet.runtime.session.SessionQueries;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.List;

/**
 * {@link Ratchet#inMemory}: the session host a deployed node runs, on an in-memory journal, with
 * one owner and nothing published beyond the journal.
 */
public final class InMemoryRatchet implements Ratchet {

  private static final long IDLE_MILLIS = 60_000;

  private final Vertx vertx;
  private final InMemoryJournal journal;
  private final SessionManager sessions;
  private final AgentTable agents = new AgentTable();
  private final SessionIntake intake;
  private final RatchetQueries queries;

  public InMemoryRatchet(Vertx vertx, RatchetClock clock) {
    this.vertx = vertx;
    this.journal = InMemoryJournal.create(vertx, clock);
    this.sessions = new SessionManager(vertx, journal, EngineOptions.DEFAULT, "memory", IDLE_MILLIS,
        SessionHooks.NONE, clock);
    this.intake = new SessionIntake(sessions, agents);
    this.queries = new SessionQueries(journal.queries(), agents);
  }

  @Override
  public Future<ToolCatalog> register(AgentDefinition agent) {
    return ToolCatalog.resolve(vertx, agent).compose(catalog -> {
      try {
        agents.add(agent, catalog);
      } catch (RatchetException e) {
        return Future.failedFuture(e);
      }
      return Future.succeededFuture(catalog);
    });
  }

  @Override
  public Future<Accepted<TurnResult>> accept(TurnRequest request) {
    RatchetException refused = SessionIntake.problem(request, EngineOptions.DEFAULT);
    return refused != null ? Future.failedFuture(refused) : intake.accept(request, null);
  }

  @Override
  public Future<Accepted<AgentReply>> acceptMessage(MessageRequest request) {
    RatchetException refused = SessionIntake.problem(request);
    return refused != null ? Future.failedFuture(refused) : intake.accept(request, null);
  }

  @Override
  public Future<DecisionResult> decide(ApprovalDecision decision) {
    return intake.decide(decision).onSuccess(result -> {
      if (result == DecisionResult.ACCEPTED) {
        sessions.approvalDecided(decision.sessionId(), decision.callId());
      }
    });
  }

  @Override
  public Future<List<ApprovalRequest>> pendingApprovals() {
    return journal.queries().pendingApprovals(1000);
  }

  @Override
  public RatchetQueries queries() {
    return queries;
  }

  @Override
  public Future<Void> close() {
    return sessions.close().compose(v -> journal.close());
  }
}
