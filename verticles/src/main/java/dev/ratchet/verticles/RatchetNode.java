package dev.ratchet.verticles;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.Ratchet;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.journal.JournalDiagnostics;
import dev.ratchet.runtime.journal.JournalQueries;
import dev.ratchet.verticles.impl.RatchetNodeImpl;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * A {@link Ratchet} deployed on a Redis journal, with its event-bus API, retention sweeper and,
 * on a clustered Vert.x, its place in the cluster; what an operator needs beyond the facade.
 * <pre>{@code
 * RatchetNode node = RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl("redis://localhost:6379")).await();
 * node.register(agent).await();
 * TurnResult result = node.submit(TurnRequest.of("orders", "session-42", turn).callerId("tenant-7")).await();
 * }</pre>
 */
public interface RatchetNode extends Ratchet {

  /** Connects to the journal, deploys the session manager and its event-bus API. */
  static Future<RatchetNode> deploy(Vertx vertx, RatchetOptions options) {
    return RatchetNodeImpl.deploy(vertx, options);
  }

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

  /** Records a person's finding for an outcome_unknown call, with who made it. */
  Future<CallResult> reconcile(String sessionId, CallId callId, Outcome outcome, String who, String note);

  /** The journal's read side: what the HTTP API, the dashboard and the CLI show. */
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

  /**
   * Erases a session (operators only: the HTTP API checks the caller): its journal keys, tombstones
   * and archive entries, audited with {@code who} and the time, never the content. Answers false
   * when the session is unknown.
   */
  Future<Boolean> eraseSession(String sessionId, String who);

  /**
   * The retention settings: whether the sweeper runs, the default policy, the tombstone window,
   * each agent's policy.
   */
  JsonObject retentionSettings();
}
