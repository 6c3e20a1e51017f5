package dev.ratchet.runtime;

import dev.ratchet.runtime.agent.AgentReply;
import dev.ratchet.runtime.impl.InMemoryRatchet;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.List;

/**
 * Ratchet embedded in a Vert.x application: register agents, submit turns, send messages, decide
 * approvals, read what it holds.
 * <pre>{@code
 * Ratchet ratchet = Ratchet.inMemory(vertx);  // or RatchetNode.deploy(vertx, options) over Redis
 * ratchet.register(agent).await();
 * TurnResult result = ratchet.submit(TurnRequest.of("orders", "session-42", turn).callerId("tenant-7")).await();
 * }</pre>
 * Every turn rule (docs/ARCHITECTURE.md) holds whichever journal it runs on. This Java API is
 * trusted: the application vouches for the caller ids it passes.
 */
public interface Ratchet {

  /**
   * A Ratchet on an in-memory journal, for an application's own tests: the same session engine,
   * no Redis, nothing kept once it is closed. Time is the wall clock.
   */
  static Ratchet inMemory(Vertx vertx) {
    return inMemory(vertx, RatchetClock.system(vertx));
  }

  /** As {@link #inMemory(Vertx)}, reading the time and setting timers through {@code clock}. */
  static Ratchet inMemory(Vertx vertx, RatchetClock clock) {
    return new InMemoryRatchet(vertx, clock);
  }

  /** Registers an agent and resumes every session of it that the journal holds in flight. */
  Future<ToolCatalog> register(AgentDefinition agent);

  /** As {@link #submit(TurnRequest)}, with no caller. */
  default Future<TurnResult> submit(String agent, String sessionId, Turn turn) {
    return submit(TurnRequest.of(agent, sessionId, turn));
  }

  /**
   * Submits a turn; completes with its results. Idempotent by turn id. It may wait for approvals as
   * long as they take.
   */
  default Future<TurnResult> submit(TurnRequest request) {
    return accept(request).compose(Accepted::result);
  }

  /**
   * Journals a turn as {@link #submit(TurnRequest)} does, and answers as soon as it is journaled
   * (durable: it runs to its end, also after a restart), with the future of its results.
   */
  Future<Accepted<TurnResult>> accept(TurnRequest request);

  /** As {@link #send(MessageRequest)}, a new message with no caller. */
  default Future<AgentReply> send(String agent, String sessionId, String text) {
    return send(MessageRequest.of(agent, sessionId, text));
  }

  /**
   * Sends a user message to a session of an agent that has a model, and completes with the reply
   * that ends its round: the model's final answer, the turn limit, or the model's failure. The
   * message, every model response and the answer are journaled; after a restart the round goes on
   * where it stopped.
   */
  default Future<AgentReply> send(MessageRequest request) {
    return acceptMessage(request).compose(Accepted::result);
  }

  /**
   * Journals a user message as {@link #send(MessageRequest)} does, and answers as soon as it is
   * journaled, with the future of the reply that ends its round.
   */
  Future<Accepted<AgentReply>> acceptMessage(MessageRequest request);

  /** Decides a pending approval; answers why it was refused when it was. */
  Future<DecisionResult> decide(ApprovalDecision decision);

  /** Pending approvals across all sessions, oldest first (at most 1,000). */
  Future<List<ApprovalRequest>> pendingApprovals();

  /** What this Ratchet holds, read only: agents, sessions, events, results, approvals, conversations. */
  RatchetQueries queries();

  /** Stops every session (their work in flight stays journaled) and closes the journal. */
  Future<Void> close();
}
