package dev.ratchet.verticles.impl;

import dev.ratchet.runtime.Accepted;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.DecisionResult;
import dev.ratchet.runtime.MessageRequest;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RatchetClock;
import dev.ratchet.runtime.RatchetQueries;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.TurnRequest;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.agent.AgentReply;
import dev.ratchet.runtime.journal.JournalDiagnostics;
import dev.ratchet.runtime.journal.JournalQueries;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.runtime.retention.ArchiveSink;
import dev.ratchet.runtime.retention.RetentionOptions;
import dev.ratchet.runtime.retention.RetentionSweeper;
import dev.ratchet.runtime.session.AgentTable;
import dev.ratchet.runtime.session.SessionManager;
import dev.ratchet.runtime.session.SessionQueries;
import dev.ratchet.verticles.Addresses;
import dev.ratchet.verticles.ClusterStatus;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import dev.ratchet.verticles.impl.cluster.ClusterMembers;
import dev.ratchet.verticles.impl.cluster.SessionRouter;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.nio.file.Path;
import java.util.List;

/**
 * A deployed node: its agents ({@link AgentRegistry}), turn and message intake ({@link NodeIntake}),
 * approvals ({@link ApprovalDesk}), the session host and the event-bus API over one Redis journal,
 * and its place in the cluster. Starting it is {@link NodeStart}'s part.
 */
public final class RatchetNodeImpl implements RatchetNode {

  final Vertx vertx;
  final RatchetOptions options;
  final RedisJournal journal;
  final SessionManager sessions;
  final AgentRegistry agents;
  final ApprovalDesk approvals;
  final RetentionSweeper sweeper;
  final ClusterMembers members;
  final SessionRouter router;
  private final AgentTable table = new AgentTable();
  private final NodeIntake intake;
  private final RatchetQueries queries;
  /** The event-bus API's deployment, from {@link #markReady()} on. */
  private Future<String> apiDeployment;
  private volatile boolean ready;

  RatchetNodeImpl(Vertx vertx, RatchetOptions options, RedisJournal journal) {
    this.vertx = vertx;
    this.options = options;
    this.journal = journal;
    this.members = ClusterMembers.of(vertx, options.nodeId(), Addresses.SUBMIT);
    this.sessions = new SessionManager(vertx, journal, options.engine(), members.self(), options.sessionIdleMillis(),
        new EventBusHooks(vertx), RatchetClock.system(vertx));
    ArchiveSink archive = options.archiveSink() != null ? options.archiveSink()
        : ArchiveSink.jsonLines(vertx, Path.of(options.retention().archiveDir()),
            options.retention().archiveMaxFileBytes());
    this.sweeper = new RetentionSweeper(vertx, journal.retention(), archive, options.retention());
    this.agents = new AgentRegistry(vertx, journal.queries(), sessions, members, sweeper, table, () -> ready);
    this.intake = new NodeIntake(options.engine(), table, sessions, () -> ready, agents::resume);
    this.router = new SessionRouter(vertx, members, journal.queries(), intake);
    intake.routeThrough(router);
    this.approvals = new ApprovalDesk(vertx, journal, intake.here(), sessions);
    this.queries = new SessionQueries(journal.queries(), table);
  }

  public static Future<RatchetNode> deploy(Vertx vertx, RatchetOptions options) {
    return NodeStart.deploy(vertx, options);
  }

  @Override
  public Future<ToolCatalog> register(AgentDefinition agent) {
    return agents.register(agent);
  }

  @Override
  public Future<ToolCatalog> update(AgentDefinition agent) {
    return define(List.of(agent)).map(list -> list.get(0));
  }

  @Override
  public Future<List<ToolCatalog>> define(List<AgentDefinition> definitions) {
    return agents.define(definitions);
  }

  /** A member leaving its cluster is no longer ready, though it still answers for the sessions it hands over. */
  @Override
  public boolean ready() {
    return ready && !members.leaving();
  }

  /**
   * Serving the event-bus API is what makes other members place sessions here
   * ({@link ClusterMembers}), so it starts only now; then this node takes over what placement
   * gives it of the sessions members left behind.
   */
  @Override
  public synchronized Future<Void> markReady() {
    if (apiDeployment != null) {
      return apiDeployment.mapEmpty();
    }
    members.join();
    apiDeployment = vertx.deployVerticle(new EventBusApi(this));
    return apiDeployment.map(id -> {
      ready = true;
      if (members.clustered()) {
        agents.takeOver();
      }
      return (Void) null;
    });
  }

  @Override
  public ClusterStatus cluster() {
    return new ClusterStatus(members.clustered(), members.self(), members.live().stream().sorted().toList(),
        sessions.active(), agents.takeovers());
  }

  @Override
  public Future<Accepted<TurnResult>> accept(TurnRequest request) {
    return accept(request, null);
  }

  /**
   * As {@link #accept(TurnRequest)}; the session's owner (or the member that takes the session
   * over) sends the results to {@code replyAddress} (null: none), which is journaled with the turn.
   * docs/EVENT-BUS.md.
   */
  public Future<Accepted<TurnResult>> accept(TurnRequest request, String replyAddress) {
    return intake.route(request, replyAddress);
  }

  @Override
  public Future<Accepted<AgentReply>> acceptMessage(MessageRequest request) {
    return acceptMessage(request, null);
  }

  /**
   * As {@link #acceptMessage(MessageRequest)}; the session's owner (or the member that continues its
   * round after a takeover) sends the reply to {@code replyAddress} (null: none), which is journaled
   * with the message. docs/EVENT-BUS.md.
   */
  public Future<Accepted<AgentReply>> acceptMessage(MessageRequest request, String replyAddress) {
    return intake.route(request, replyAddress);
  }

  @Override
  public Future<DecisionResult> decide(ApprovalDecision decision) {
    return approvals.decide(decision);
  }

  @Override
  public Future<List<ApprovalRequest>> pendingApprovals() {
    return journal.queries().pendingApprovals(1000);
  }

  @Override
  public Future<CallResult> reconcile(String sessionId, CallId callId, Outcome outcome, String who, String note) {
    return approvals.reconcile(sessionId, callId, outcome, who, note);
  }

  @Override
  public RatchetQueries queries() {
    return queries;
  }

  @Override
  public JournalQueries journal() {
    return journal.queries();
  }

  @Override
  public JournalDiagnostics diagnostics() {
    return journal.diagnostics();
  }

  /** The Redis journal itself, for the CLI and the benchmark, which inspect Redis. */
  public RedisJournal redisJournal() {
    return journal;
  }

  @Override
  public RatchetOptions options() {
    return options;
  }

  @Override
  public int activeSessions() {
    return sessions.active();
  }

  /** Sessions the session manager holds anything for: running, starting or being passivated. */
  public int trackedSessions() {
    return sessions.tracked();
  }

  @Override
  public Future<Boolean> eraseSession(String sessionId, String who) {
    return sweeper.erase(sessionId, who).compose(known -> sessions.stop(sessionId).map(known));
  }

  @Override
  public JsonObject retentionSettings() {
    RetentionOptions r = options.retention();
    JsonObject perAgent = new JsonObject();
    table.names().stream().sorted().forEach(a -> perAgent.put(a, sweeper.policyFor(a).toJson()
        .put("own", table.get(a).definition().retention() != null)));
    return new JsonObject().put("enabled", r.enabled()).put("default", r.defaultPolicy().toJson())
        .put("tombstoneWindowMillis", r.tombstoneWindow().toMillis()).put("agents", perAgent);
  }

  /** The retention sweeper, for the benchmark and the CLI. */
  public RetentionSweeper retention() {
    return sweeper;
  }

  @Override
  public Future<Void> close() {
    sweeper.stop();
    agents.close();
    Future<Void> api = apiDeployment == null ? Future.succeededFuture()
        : apiDeployment.compose(vertx::undeploy).otherwiseEmpty();
    return api.compose(v -> NodeDeparture.leave(members, sessions, router, options.leaveTimeoutMillis()))
        .compose(v -> {
          members.close();
          return router.close().otherwiseEmpty();
        })
        .compose(v -> approvals.close().otherwiseEmpty())
        .compose(v -> sessions.close()).compose(v -> journal.close());
  }
}
