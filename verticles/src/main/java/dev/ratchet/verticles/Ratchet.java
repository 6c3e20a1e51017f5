package dev.ratchet.verticles;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.agent.AgentReply;
import dev.ratchet.runtime.journal.DecisionAnswer;
import dev.ratchet.runtime.journal.JournalDiagnostics;
import dev.ratchet.runtime.journal.JournalQueries;
import dev.ratchet.verticles.impl.RatchetImpl;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * Ratchet embedded in a Vert.x application: register agents, submit turns, decide approvals.
 * <pre>{@code
 * Ratchet ratchet = Ratchet.deploy(vertx, RatchetOptions.create().redisUrl("redis://localhost:6379")).await();
 * ratchet.register(agent).await();
 * TurnResult result = ratchet.submit("orders", "session-42", "tenant-7", turn).await();
 * }</pre>
 * A session's caller (the resource id of the tenant or user it acts for) is fixed by its first
 * submit or message. Tools with caller-supplied connections run as that caller. This Java API is
 * trusted: the application vouches for the caller id it passes.
 */
public interface Ratchet {

  /** Connects to the journal, deploys the session manager and its event-bus API. */
  static Future<Ratchet> deploy(Vertx vertx, RatchetOptions options) {
    return RatchetImpl.deploy(vertx, options);
  }

  /** Registers an agent and resumes every session of it that the journal holds in flight. */
  Future<ToolCatalog> register(AgentDefinition agent);

  /**
   * Replaces a registered agent's definition (tool sources, policies, model) at run time. New turns
   * are validated against the new catalogue; a turn already validated finishes with the catalogue
   * it was validated against, whose version its journaled spec records ({@code catalogue}).
   * Sessions already running keep their loop settings (model, limits) until they are passivated.
   * A definition whose catalogue cannot be resolved changes nothing. An agent not registered yet
   * is registered.
   */
  Future<ToolCatalog> update(AgentDefinition agent);

  /**
   * Registers or replaces several agents at once, as {@link #update} does each: every catalogue is
   * resolved first, and when any fails (or a name comes twice) nothing changes. Agents not named
   * stay as they are.
   */
  Future<List<ToolCatalog>> define(List<AgentDefinition> agents);

  /** The resolved tools of a registered agent. */
  ToolCatalog catalog(String agent);

  List<String> agents();

  /**
   * Submits a turn for a session; completes with its results. Idempotent by turn id. The future
   * does not depend on an event-bus timeout, so it may wait for approvals as long as they take.
   */
  default Future<TurnResult> submit(String agent, String sessionId, Turn turn) {
    return submit(agent, sessionId, null, turn);
  }

  /**
   * As {@link #submit(String, String, Turn)}, for the session of {@code callerId}. The first
   * submit or message creates the session with that caller; later ones with another caller (or
   * with a caller, for a session created without one) fail with {@code CALLER_MISMATCH} and
   * journal nothing. A null {@code callerId} accepts whatever caller the session has.
   */
  Future<TurnResult> submit(String agent, String sessionId, String callerId, Turn turn);

  /**
   * Journals a turn as {@link #submit(String, String, String, Turn)} does, and answers as soon as it
   * is journaled (durable: it runs to its end, also after a restart); the inner future completes
   * with its results. A session this turn creates records {@code creator}, the name of the user or
   * token that submitted it (null: none).
   */
  Future<Future<TurnResult>> accept(String agent, String sessionId, String callerId, String creator, Turn turn);

  /**
   * Sends a user message to a session of an agent that has a model, and completes with the reply
   * that ends its round: the model's final answer, the turn limit, or the model's failure. The
   * message, every model response and the answer are journaled; after a restart the round goes on
   * where it stopped and the answer is published as a {@code message.assistant} event.
   */
  default Future<AgentReply> send(String agent, String sessionId, String userMessage) {
    return send(agent, sessionId, null, userMessage);
  }

  /** As {@link #send(String, String, String)}, for the session of {@code callerId}; the caller rule of {@link #submit(String, String, String, Turn)} applies. */
  Future<AgentReply> send(String agent, String sessionId, String callerId, String userMessage);

  /**
   * Journals a user message as {@link #send(String, String, String, String)} does, and answers as
   * soon as it is journaled; the inner future completes with the reply that ends its round. A
   * {@code messageId} given again is not appended twice (null: a new message); a session it creates
   * records {@code creator} (null: none).
   */
  Future<Future<AgentReply>> acceptMessage(String agent, String sessionId, String callerId, String creator,
                                           String messageId, String text);

  /**
   * A session's conversation rebuilt from the journal: {@code {"sessionId", "messages": [...]}}
   * with user messages, model responses (with their tool calls' results) and final answers.
   */
  Future<JsonObject> conversation(String sessionId);

  /** Decides a pending approval; answers why it was refused when it was. */
  Future<DecisionAnswer> decide(ApprovalDecision decision);

  /** Pending approvals across all sessions, oldest first. */
  Future<List<ApprovalRequest>> pendingApprovals();

  /** Records a person's finding for an outcome_unknown call, with who made it. */
  Future<CallResult> reconcile(String sessionId, CallId callId, Outcome outcome, String who, String note);

  /** The journal's read side: sessions, their events, turns' results, approvals. */
  JournalQueries journal();

  /** The journal store's health and figures, for the health endpoints and the metrics. */
  JournalDiagnostics diagnostics();

  /** The options it was deployed with. */
  RatchetOptions options();

  /** Number of session verticles deployed right now. */
  int activeSessions();

  /**
   * This node's cluster: on a clustered Vert.x (docs/CLUSTER.md) each session runs on one member,
   * requests for a session reach it from any member, and the sessions of a member that leaves are
   * taken over by the others. Not clustered: this node alone.
   */
  ClusterStatus cluster();

  /**
   * Whether this node takes sessions: deployed, and marked ready when {@link RatchetOptions#deferReady}
   * asked for it. Until then turns and messages fail with {@code NOT_READY}, and in a cluster no
   * session is placed on this node (docs/CLUSTER.md). False again once a clustered member starts
   * leaving, though it still answers for the sessions it hands over.
   */
  boolean ready();

  /**
   * Declares this node ready: its agents are registered. In a cluster it joins placement and takes
   * over the sessions of members that left. Done by {@link #deploy} itself unless
   * {@link RatchetOptions#deferReady} is set; marking a ready node again does nothing.
   */
  Future<Void> markReady();

  Future<Void> close();

  /**
   * Erases a session (operators only: the HTTP API checks the caller): its journal keys, tombstones
   * and archive entries, audited with {@code who} and the time, never the content. Answers false
   * when the session is unknown.
   */
  Future<Boolean> eraseSession(String sessionId, String who);

  /** The retention settings: whether the sweeper runs, the default policy, the tombstone window, each agent's policy. */
  JsonObject retentionSettings();
}
