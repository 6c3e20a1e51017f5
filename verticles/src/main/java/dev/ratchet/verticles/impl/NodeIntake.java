package dev.ratchet.verticles.impl;

import dev.ratchet.runtime.Accepted;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.MessageRequest;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.TurnRequest;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.agent.AgentReply;
import dev.ratchet.runtime.engine.EngineOptions;
import dev.ratchet.runtime.session.AgentTable;
import dev.ratchet.runtime.session.SessionIntake;
import dev.ratchet.runtime.session.SessionManager;
import dev.ratchet.verticles.impl.cluster.SessionRouter;
import io.vertx.core.Future;

import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;

/**
 * A node's turn and message intake: checks each request before any session is claimed, refuses it
 * while the node is not ready, and routes it to the member that runs its session, this one
 * included ({@link SessionRouter}).
 */
final class NodeIntake implements SessionRouter.Local {

  private final EngineOptions options;
  private final AgentTable agents;
  private final SessionManager sessions;
  private final SessionIntake here;
  private final BooleanSupplier ready;
  private final BiFunction<String, String, Future<Void>> resume;
  private SessionRouter router;

  NodeIntake(EngineOptions options, AgentTable agents, SessionManager sessions, BooleanSupplier ready,
             BiFunction<String, String, Future<Void>> resume) {
    this.options = options;
    this.agents = agents;
    this.sessions = sessions;
    this.here = new SessionIntake(sessions, agents);
    this.ready = ready;
    this.resume = resume;
  }

  /** Where requests go once checked; set once, before the node takes requests. */
  void routeThrough(SessionRouter router) {
    this.router = router;
  }

  /** Intake of the sessions this node runs, also for decisions. */
  SessionIntake here() {
    return here;
  }

  /** Checks a turn and routes it to its session's member; completes once journaled there. */
  Future<Accepted<TurnResult>> route(TurnRequest request, String replyAddress) {
    RatchetException refused = SessionIntake.problem(request, options);
    refused = refused != null ? refused : refusedHere(request.agent());
    return refused != null ? Future.failedFuture(refused) : router.accept(request, replyAddress);
  }

  /** Checks a message and routes it to its session's member; completes once journaled there. */
  Future<Accepted<AgentReply>> route(MessageRequest request, String replyAddress) {
    RatchetException refused = SessionIntake.problem(request);
    refused = refused != null ? refused : refusedHere(request.agent());
    return refused != null ? Future.failedFuture(refused) : router.acceptMessage(request, replyAddress);
  }

  private RatchetException refusedHere(String agent) {
    if (!ready.getAsBoolean()) {
      return notReady();
    }
    return agents.contains(agent) ? null : agents.unknown(agent);
  }

  /** Accepts a checked turn on this node, which runs (or will run) the session. */
  @Override
  public Future<Accepted<TurnResult>> accept(TurnRequest request, String replyAddress) {
    return agents.contains(request.agent()) ? here.accept(request, replyAddress)
        : Future.failedFuture(missing(request.agent()));
  }

  /** Accepts a checked message on this node, which runs (or will run) the session. */
  @Override
  public Future<Accepted<AgentReply>> acceptMessage(MessageRequest request, String replyAddress) {
    return agents.contains(request.agent()) ? here.accept(request, replyAddress)
        : Future.failedFuture(missing(request.agent()));
  }

  /** A request forwarded here before this member loaded the agent is told to try again, not that it is unknown. */
  private RatchetException missing(String agent) {
    return ready.getAsBoolean() ? agents.unknown(agent) : notReady();
  }

  @Override
  public boolean holds(String sessionId) {
    return sessions.holds(sessionId);
  }

  @Override
  public Future<Void> resume(String agent, String sessionId) {
    return resume.apply(agent, sessionId);
  }

  static RatchetException notReady() {
    return new RatchetException(ErrorCode.NOT_READY, "this member is still starting: its agents are not all loaded"
        + " yet; try again shortly");
  }
}
