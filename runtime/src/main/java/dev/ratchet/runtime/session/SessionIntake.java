package dev.ratchet.runtime.session;

import dev.ratchet.runtime.Accepted;
import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.DecisionResult;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.Ids;
import dev.ratchet.runtime.MessageRequest;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.TurnRequest;
import dev.ratchet.runtime.agent.AgentReply;
import dev.ratchet.runtime.engine.EngineOptions;
import dev.ratchet.runtime.engine.SessionEngine;
import dev.ratchet.runtime.engine.TurnLimits;
import io.vertx.core.Future;

/**
 * Takes turns, messages and decisions in for the sessions this host runs: checks them before any
 * session is claimed (a refused request leaves no trace in the journal), then hands them to the
 * session, starting it when it is not running. Where a deployed node routes a session to another
 * member first, it checks requests the same way.
 */
public final class SessionIntake {

  /** Longest user message accepted, in characters. */
  public static final int MAX_MESSAGE_CHARS = 32_000;
  /** Tries for a request that loses the race with its session's passivation. */
  private static final int TRIES = 3;

  private final SessionManager sessions;
  private final AgentTable agents;

  public SessionIntake(SessionManager sessions, AgentTable agents) {
    this.sessions = sessions;
    this.agents = agents;
  }

  /** Why the turn is refused before any session is claimed; null when it may be journaled. */
  public static RatchetException problem(TurnRequest request, EngineOptions options) {
    RatchetException refused = Ids.problem("sessionId", request.sessionId());
    refused = refused != null ? refused : Ids.problem("agent", request.agent());
    refused = refused != null ? refused : TurnLimits.problem(request.turn(), options);
    return refused != null ? refused : callerProblem(request.callerId());
  }

  /** Why the message is refused before any session is claimed; null when it may be journaled. */
  public static RatchetException problem(MessageRequest request) {
    RatchetException refused = callerProblem(request.callerId());
    refused = refused != null ? refused : Ids.problem("sessionId", request.sessionId());
    refused = refused != null ? refused : Ids.problem("agent", request.agent());
    refused = refused != null || request.messageId() == null ? refused : Ids.problem("messageId", request.messageId());
    if (refused != null) {
      return refused;
    }
    String text = request.text();
    if (text == null || text.isBlank()) {
      return new RatchetException(ErrorCode.INVALID_REQUEST, "'text' must be a non-empty string");
    }
    if (text.length() > MAX_MESSAGE_CHARS) {
      return new RatchetException(ErrorCode.INVALID_REQUEST, "'text' is longer than " + MAX_MESSAGE_CHARS
          + " characters");
    }
    return null;
  }

  private static RatchetException callerProblem(String callerId) {
    return callerId == null || Ids.valid(callerId) ? null
        : new RatchetException(ErrorCode.INVALID_REQUEST, "'callerId' must be 1-128 of [A-Za-z0-9_.:@+-]");
  }

  /**
   * Journals a checked turn in its session here; completes once journaled. The session's results
   * also go to {@code replyAddress} (null: none), which is journaled with the turn.
   */
  public Future<Accepted<TurnResult>> accept(TurnRequest request, String replyAddress) {
    AgentVersions agent = agents.get(request.agent());
    if (agent == null) {
      return Future.failedFuture(agents.unknown(request.agent()));
    }
    return accept(agent, request, replyAddress, TRIES);
  }

  private Future<Accepted<TurnResult>> accept(AgentVersions agent, TurnRequest r, String replyAddress, int tries) {
    return sessions.session(r.sessionId(), agent)
        .compose(v -> v.accept(r.turn(), r.callerId(), r.creator(), replyAddress))
        .recover(err -> tries > 1 && RatchetException.is(err, ErrorCode.PASSIVATED)
            ? accept(agent, r, replyAddress, tries - 1) : Future.failedFuture(err));
  }

  /**
   * Journals a checked user message in its session here; completes once journaled. The reply also
   * goes to {@code replyAddress} (null: none), which is journaled with the message.
   */
  public Future<Accepted<AgentReply>> accept(MessageRequest request, String replyAddress) {
    AgentVersions agent = agents.get(request.agent());
    if (agent == null) {
      return Future.failedFuture(agents.unknown(request.agent()));
    }
    return accept(agent, request, replyAddress, TRIES);
  }

  private Future<Accepted<AgentReply>> accept(AgentVersions agent, MessageRequest r, String replyAddress,
                                              int tries) {
    return sessions.session(r.sessionId(), agent)
        .compose(v -> v.message(r.messageId(), r.text(), r.callerId(), r.creator(), replyAddress))
        .recover(err -> tries > 1 && RatchetException.is(err, ErrorCode.PASSIVATED)
            ? accept(agent, r, replyAddress, tries - 1) : Future.failedFuture(err));
  }

  /**
   * Journals a person's decision, checked by the journal (rule 8) and, for edited arguments, against
   * the tool's catalogue entry. The session's owner still has to be told of an accepted decision.
   */
  public Future<DecisionResult> decide(ApprovalDecision decision) {
    return SessionEngine.journalDecision(sessions.journal, agents::catalog, decision)
        .map(answer -> DecisionResult.valueOf(answer.name()));
  }
}
