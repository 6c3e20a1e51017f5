package dev.ratchet.verticles.impl;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.Ids;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.agent.AgentReply;
import dev.ratchet.runtime.engine.SessionEngine;
import dev.ratchet.runtime.engine.TurnLimits;
import dev.ratchet.runtime.journal.DecisionAnswer;
import dev.ratchet.runtime.journal.JournalOptions;
import dev.ratchet.runtime.journal.JournalQueries;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.runtime.retention.ArchiveSink;
import dev.ratchet.runtime.retention.RetentionOptions;
import dev.ratchet.runtime.retention.RetentionSweeper;
import java.nio.file.Path;
import dev.ratchet.verticles.Addresses;
import dev.ratchet.verticles.ClusterStatus;
import dev.ratchet.verticles.Ratchet;
import dev.ratchet.verticles.RatchetOptions;
import dev.ratchet.verticles.impl.cluster.ClusterMembers;
import dev.ratchet.verticles.impl.cluster.SessionRouter;
import dev.ratchet.verticles.impl.cluster.Takeover;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The embedded runtime: agents, the session manager and the event-bus API over one journal. */
public final class RatchetImpl implements Ratchet {

  private static final Logger LOG = LoggerFactory.getLogger(RatchetImpl.class);
  static final int MAX_MESSAGE_CHARS = 32_000;
  /** A caller's resource id: also sent to tool providers as their user id, so kept to a safe alphabet. */

  private final Vertx vertx;
  private final RatchetOptions options;
  private final RedisJournal journal;
  private final SessionManager manager;
  private final Map<String, AgentVersions> agents = new ConcurrentHashMap<>();
  private final java.util.concurrent.atomic.LongAdder takeovers = new java.util.concurrent.atomic.LongAdder();
  private final ToolsChanged toolsChanged;
  /** The event-bus API's deployment, from {@link #markReady()} on. */
  private Future<String> apiDeployment;
  private final RetentionSweeper sweeper;
  private final ClusterMembers members;
  private final SessionRouter router;
  private long takeoverTimer = -1;
  private volatile boolean ready;

  private RatchetImpl(Vertx vertx, RatchetOptions options, RedisJournal journal) {
    this.vertx = vertx;
    this.options = options;
    this.journal = journal;
    this.members = ClusterMembers.of(vertx, options.nodeId(), Addresses.SUBMIT);
    this.manager = new SessionManager(vertx, journal, options.engine(), members.self(), options.sessionIdleMillis());
    this.router = new SessionRouter(vertx, members, journal, new SessionRouter.Local() {
      @Override
      public Future<Future<TurnResult>> accept(String agent, String sessionId, String callerId, String creator,
                                               Turn turn, String replyAddress) {
        return acceptHere(agent, sessionId, callerId, creator, turn, replyAddress);
      }

      @Override
      public Future<Future<AgentReply>> acceptMessage(String agent, String sessionId, String callerId, String creator,
                                                      String messageId, String text, String replyAddress) {
        return acceptMessageHere(agent, sessionId, callerId, creator, messageId, text, replyAddress);
      }

      @Override
      public boolean holds(String sessionId) {
        return manager.holds(sessionId);
      }

      @Override
      public Future<Void> resume(String agent, String sessionId) {
        AgentVersions catalog = agents.get(agent);
        if (catalog == null) {
          return Future.failedFuture(unknownAgent(agent));
        }
        return manager.session(sessionId, catalog).onSuccess(v -> takeovers.increment()).mapEmpty();
      }
    });
    this.toolsChanged = new ToolsChanged(vertx, agents);
    ArchiveSink archive = options.archiveSink() != null ? options.archiveSink()
        : ArchiveSink.jsonLines(vertx, Path.of(options.retention().archiveDir()), options.retention().archiveMaxFileBytes());
    this.sweeper = new RetentionSweeper(vertx, journal, archive, options.retention());
  }

  public static Future<Ratchet> deploy(Vertx vertx, RatchetOptions options) {
    if ((options.redisUrl() == null || options.redisUrl().isBlank()) && options.redisTopology().endpoints().isEmpty()) {
      return Future.failedFuture(new IllegalArgumentException("a Redis URL is required (redis.url or RATCHET_REDIS_URL)"));
    }
    JournalOptions journalOptions;
    try {
      journalOptions = options.journalOptions();
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    return RedisJournal.open(vertx, journalOptions).compose(journal -> {
      RatchetImpl ratchet = new RatchetImpl(vertx, options, journal);
      return journal.persistence()
          .onSuccess(p -> {
            String replication = journal.replication().isEmpty() ? "" : "; " + journal.replication();
            if (!p.atRisk()) {
              LOG.info("journal at {}: {}{}", journal.describe(), p.describe(), replication);
            } else {
              LOG.warn("journal at {}: {}{}", journal.describe(), p.describe(), replication);
            }
          })
          .onFailure(err -> LOG.warn("journal at {}: could not find out whether Redis persists acknowledged steps"
              + " (CONFIG GET refused?): {}", journal.describe(), err.getMessage()))
          .otherwiseEmpty()
          // every node refuses forgotten sessions, whichever node's sweeper forgot them
          .compose(v -> options.retention().forgetAfter() == null ? Future.<Void>succeededFuture()
              : journal.refuseForgotten())
          .compose(v -> warnOfTooFewReplicas(journal, journalOptions.waitReplicas()))
          .compose(v -> ratchet.manager.ready())
          .compose(v -> ratchet.members.start())
          .compose(v -> ratchet.router.start())
          .onSuccess(v -> {
            if (options.retention().enabled()) {
              ratchet.sweeper.start();
            }
            ratchet.followMembers();
          })
          .compose(v -> options.deferReady() ? Future.succeededFuture() : ratchet.markReady())
          .map(v -> (Ratchet) ratchet);
    });
  }

  /** Says at start-up when a master has fewer replicas than every step waits for: each step on it would fail. */
  private static Future<Void> warnOfTooFewReplicas(RedisJournal journal, int waitReplicas) {
    if (waitReplicas == 0) {
      return Future.succeededFuture();
    }
    return journal.fewestReplicas()
        .onSuccess(fewest -> {
          if (fewest < waitReplicas) {
            LOG.warn("journal.waitReplicas is {} but a master of the journal has {} replica(s) now: every step on it"
                + " fails with JOURNAL_NOT_REPLICATED until enough replicas keep up", waitReplicas, fewest);
          }
        })
        .<Void>mapEmpty()
        .otherwiseEmpty();
  }

  @Override
  public Future<ToolCatalog> register(AgentDefinition agent) {
    return ToolCatalog.resolve(vertx, agent).compose(catalog -> {
      AgentVersions versions = new AgentVersions(agent, catalog);
      if (agents.putIfAbsent(agent.name(), versions) != null) {
        return Future.failedFuture(new RatchetException(ErrorCode.DUPLICATE_AGENT, "agent '" + agent.name()
            + "' is already registered"));
      }
      sweeper.policy(agent.name(), agent.retention());
      toolsChanged.follow(agent);
      return recover(versions).map(catalog);
    });
  }

  @Override
  public Future<ToolCatalog> update(AgentDefinition agent) {
    return define(List.of(agent)).map(list -> list.get(0));
  }

  @Override
  public Future<List<ToolCatalog>> define(List<AgentDefinition> definitions) {
    java.util.Set<String> names = new java.util.HashSet<>();
    for (AgentDefinition d : definitions) {
      if (!names.add(d.name())) {
        return Future.failedFuture(new RatchetException(ErrorCode.DUPLICATE_AGENT, "agent '" + d.name()
            + "' is defined twice"));
      }
    }
    List<Future<ToolCatalog>> resolved = new ArrayList<>();
    definitions.forEach(d -> resolved.add(ToolCatalog.resolve(vertx, d)));
    // every catalogue first: one that fails changes nothing, not even the agents before it
    return Future.all(resolved).compose(cf -> {
      List<ToolCatalog> catalogs = new ArrayList<>();
      List<Future<?>> recoveries = new ArrayList<>();
      for (int i = 0; i < definitions.size(); i++) {
        AgentDefinition d = definitions.get(i);
        ToolCatalog catalog = cf.resultAt(i);
        sweeper.policy(d.name(), d.retention());
        catalogs.add(catalog);
        AgentVersions versions = agents.get(d.name());
        if (versions == null) {
          AgentVersions added = new AgentVersions(d, catalog);
          AgentVersions raced = agents.putIfAbsent(d.name(), added);
          if (raced == null) {
            toolsChanged.follow(d);
            recoveries.add(recover(added));
            LOG.info("agent {}: registered with catalogue {}", d.name(), catalog.version());
            continue;
          }
          versions = raced;
        }
        String before = versions.current().version();
        if (versions.install(d, catalog)) {
          LOG.info("agent {}: catalogue {} replaces {} for new turns", d.name(), catalog.version(), before);
        }
        toolsChanged.follow(d);
      }
      return Future.join(recoveries).map(catalogs);
    });
  }

  /** Most sessions recovery starts at once; more would only queue for the journal's connections. */
  static final int RECOVERY_WINDOW = 4096;

  /**
   * Resumes every session of this agent that the journal holds in flight. The sessions' agents are
   * read in pipelines rather than one round trip each; the sessions then start together, at most
   * {@link #RECOVERY_WINDOW} at a time, and their claims and in-flight turns are read in shared
   * pipelines too.
   */
  private Future<Void> recover(AgentVersions catalog) {
    if (members.clustered() && !ready) {
      // placement does not count this member yet: markReady takes its share over
      return Future.succeededFuture();
    }
    long started = System.currentTimeMillis();
    return journal.activeSessions().compose(journal::sessionAgents).compose(agentsById -> {
      List<String> ofAgent = new ArrayList<>();
      agentsById.forEach((id, agent) -> {
        if (catalog.agent().equals(agent) && manager.running(id) == null) {
          ofAgent.add(id);
        }
      });
      return Takeover.claimable(journal, members, ofAgent);
    }).compose(mine -> {
      if (mine.isEmpty()) {
        return Future.succeededFuture();
      }
      Promise<Void> all = Promise.promise();
      java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
      java.util.concurrent.atomic.AtomicInteger left = new java.util.concurrent.atomic.AtomicInteger(mine.size());
      for (int i = 0; i < Math.min(RECOVERY_WINDOW, mine.size()); i++) {
        startNext(catalog, mine, next, left, all);
      }
      return all.future().onSuccess(v -> {
        if (members.clustered()) {
          takeovers.add(mine.size());
        }
        LOG.info("agent {}: resumed {} session(s) with work in flight in {} ms", catalog.agent(), mine.size(),
            System.currentTimeMillis() - started);
      });
    });
  }

  /** Starts the next session of the list; when it has started (or could not), the one after it. */
  private void startNext(AgentVersions catalog, List<String> ids, java.util.concurrent.atomic.AtomicInteger next,
                         java.util.concurrent.atomic.AtomicInteger left, Promise<Void> all) {
    int i;
    while ((i = next.getAndIncrement()) < ids.size()) {
      Future<SessionVerticle> started = manager.session(ids.get(i), catalog);
      if (!started.isComplete()) {
        started.onComplete(ar -> {
          settled(left, all);
          startNext(catalog, ids, next, left, all);
        });
        return;
      }
      // already running (or refused at once): no need to wait, and no recursion either
      settled(left, all);
    }
  }

  private static void settled(java.util.concurrent.atomic.AtomicInteger left, Promise<Void> all) {
    if (left.decrementAndGet() == 0) {
      all.complete();
    }
  }

  /**
   * In a cluster: when members leave, and every {@link Takeover#SWEEP_MILLIS} in case a change went
   * unnoticed, resumes the sessions in flight that have no live owner and that placement gives to
   * this node.
   */
  private void followMembers() {
    if (!members.clustered()) {
      return;
    }
    members.onLeft(left -> {
      if (members.leaving()) {
        return;
      }
      LOG.info("cluster: {} left; taking over the sessions placement gives to {}", left, members.self());
      takeOver();
    });
    takeoverTimer = vertx.setPeriodic(Takeover.SWEEP_MILLIS, t -> takeOver());
  }

  private void takeOver() {
    agents.values().forEach(versions -> recover(versions).onFailure(err -> LOG.warn(
        "cluster: could not take over sessions of agent {}: {}", versions.agent(), err.getMessage())));
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
        takeOver();
      }
      return (Void) null;
    });
  }

  private RatchetException notReady() {
    return new RatchetException(ErrorCode.NOT_READY, "this member is still starting: its agents are not all loaded"
        + " yet; try again shortly");
  }

  @Override
  public ClusterStatus cluster() {
    return new ClusterStatus(members.clustered(), members.self(), members.live().stream().sorted().toList(),
        manager.active(), takeovers.sum());
  }

  @Override
  public ToolCatalog catalog(String agent) {
    AgentVersions versions = agents.get(agent);
    return versions == null ? null : versions.current();
  }

  @Override
  public List<String> agents() {
    return new ArrayList<>(agents.keySet());
  }

  @Override
  public Future<TurnResult> submit(String agent, String sessionId, String callerId, Turn turn) {
    return accept(agent, sessionId, callerId, turn).compose(result -> result);
  }

  /** Journals the turn; the outer future completes once journaled, the inner one with its results. */
  public Future<Future<TurnResult>> accept(String agent, String sessionId, Turn turn) {
    return accept(agent, sessionId, null, turn);
  }

  /**
   * As {@link #accept(String, String, Turn)} for the session of {@code callerId} (see
   * {@link Ratchet#submit(String, String, String, Turn)}); null accepts the session's own caller.
   */
  public Future<Future<TurnResult>> accept(String agent, String sessionId, String callerId, Turn turn) {
    return accept(agent, sessionId, callerId, null, turn);
  }

  @Override
  public Future<Future<TurnResult>> accept(String agent, String sessionId, String callerId, String creator,
                                           Turn turn) {
    return accept(agent, sessionId, callerId, creator, turn, null);
  }

  /**
   * As {@link #accept(String, String, String, String, Turn)}; the session's owner (or the member
   * that takes the session over) sends the results to {@code replyAddress} (null: none), which is
   * journaled with the turn. docs/EVENT-BUS.md.
   */
  public Future<Future<TurnResult>> accept(String agent, String sessionId, String callerId, String creator,
                                           Turn turn, String replyAddress) {
    // before the session is claimed: a refused turn leaves no trace in the journal
    RatchetException refused = Ids.problem("sessionId", sessionId);
    refused = refused != null ? refused : Ids.problem("agent", agent);
    refused = refused != null ? refused : TurnLimits.problem(turn, options.engine());
    if (refused != null) {
      return Future.failedFuture(refused);
    }
    if (callerId != null && !Ids.valid(callerId)) {
      return Future.failedFuture(new RatchetException(ErrorCode.INVALID_REQUEST,
          "'callerId' must be 1-128 of [A-Za-z0-9_.:@+-]"));
    }
    if (!ready) {
      return Future.failedFuture(notReady());
    }
    if (!agents.containsKey(agent)) {
      return Future.failedFuture(unknownAgent(agent));
    }
    return router.accept(agent, sessionId, callerId, creator, turn, replyAddress);
  }

  /** Accepts a checked turn on this node, which runs (or will run) the session. */
  private Future<Future<TurnResult>> acceptHere(String agent, String sessionId, String callerId, String creator,
                                                Turn turn, String replyAddress) {
    AgentVersions catalog = agents.get(agent);
    if (catalog == null) {
      return Future.failedFuture(ready ? unknownAgent(agent) : notReady());
    }
    return accept(catalog, sessionId, callerId, creator, turn, replyAddress, 3);
  }

  private RatchetException unknownAgent(String agent) {
    return new RatchetException(ErrorCode.UNKNOWN_AGENT, "no agent named '" + agent + "'; registered agents: "
        + agents.keySet());
  }

  private Future<Future<TurnResult>> accept(AgentVersions catalog, String sessionId, String callerId, String creator,
                                            Turn turn, String replyAddress, int tries) {
    return manager.session(sessionId, catalog).compose(v -> v.accept(turn, callerId, creator, replyAddress))
        .recover(err -> tries > 1 && RatchetException.is(err, ErrorCode.PASSIVATED)
            ? accept(catalog, sessionId, callerId, creator, turn, replyAddress, tries - 1)
            : Future.failedFuture(err));
  }

  @Override
  public Future<AgentReply> send(String agent, String sessionId, String callerId, String userMessage) {
    return acceptMessage(agent, sessionId, callerId, null, userMessage).compose(reply -> reply);
  }

  /**
   * Journals a user message for the agent loop; the outer future completes once it is journaled,
   * the inner one with the reply that ends its round. A message id given again is not appended twice.
   */
  public Future<Future<AgentReply>> acceptMessage(String agent, String sessionId, String messageId, String text) {
    return acceptMessage(agent, sessionId, null, messageId, text);
  }

  /** As {@link #acceptMessage(String, String, String, String)} for the session of {@code callerId}; null accepts the session's own. */
  public Future<Future<AgentReply>> acceptMessage(String agent, String sessionId, String callerId, String messageId,
                                                  String text) {
    return acceptMessage(agent, sessionId, callerId, null, messageId, text);
  }

  @Override
  public Future<Future<AgentReply>> acceptMessage(String agent, String sessionId, String callerId, String creator,
                                                  String messageId, String text) {
    return acceptMessage(agent, sessionId, callerId, creator, messageId, text, null);
  }

  /**
   * As {@link #acceptMessage(String, String, String, String, String, String)}; the session's owner (or
   * the member that takes the session over) sends the reply to {@code replyAddress} (null: none),
   * which is journaled with the message. docs/EVENT-BUS.md.
   */
  public Future<Future<AgentReply>> acceptMessage(String agent, String sessionId, String callerId, String creator,
                                                  String messageId, String text, String replyAddress) {
    if (callerId != null && !Ids.valid(callerId)) {
      return Future.failedFuture(new RatchetException(ErrorCode.INVALID_REQUEST,
          "'callerId' must be 1-128 of [A-Za-z0-9_.:@+-]"));
    }
    RatchetException badId = Ids.problem("sessionId", sessionId);
    badId = badId != null ? badId : Ids.problem("agent", agent);
    badId = badId != null || messageId == null ? badId : Ids.problem("messageId", messageId);
    if (badId != null) {
      return Future.failedFuture(badId);
    }
    if (text == null || text.isBlank()) {
      return Future.failedFuture(new RatchetException(ErrorCode.INVALID_REQUEST, "'text' must be a non-empty string"));
    }
    if (text.length() > MAX_MESSAGE_CHARS) {
      return Future.failedFuture(new RatchetException(ErrorCode.INVALID_REQUEST, "'text' is longer than "
          + MAX_MESSAGE_CHARS + " characters"));
    }
    if (!ready) {
      return Future.failedFuture(notReady());
    }
    if (!agents.containsKey(agent)) {
      return Future.failedFuture(unknownAgent(agent));
    }
    return router.acceptMessage(agent, sessionId, callerId, creator, messageId, text, replyAddress);
  }

  /** Accepts a checked message on this node, which runs (or will run) the session. */
  private Future<Future<AgentReply>> acceptMessageHere(String agent, String sessionId, String callerId, String creator,
                                                       String messageId, String text, String replyAddress) {
    AgentVersions catalog = agents.get(agent);
    if (catalog == null) {
      return Future.failedFuture(ready ? unknownAgent(agent) : notReady());
    }
    return acceptMessage(catalog, sessionId, callerId, creator, messageId, text, replyAddress, 3);
  }

  private Future<Future<AgentReply>> acceptMessage(AgentVersions catalog, String sessionId, String callerId,
                                                   String creator, String messageId, String text, String replyAddress,
                                                   int tries) {
    return manager.session(sessionId, catalog).compose(v -> v.message(messageId, text, callerId, creator, replyAddress))
        .recover(err -> tries > 1 && RatchetException.is(err, ErrorCode.PASSIVATED)
            ? acceptMessage(catalog, sessionId, callerId, creator, messageId, text, replyAddress, tries - 1)
            : Future.failedFuture(err));
  }

  @Override
  public Future<JsonObject> conversation(String sessionId) {
    return journal.conversation(sessionId).compose(entries -> {
      List<Future<JsonObject>> messages = new ArrayList<>();
      for (JsonObject e : entries) {
        messages.add(conversationMessage(sessionId, e));
      }
      return Future.all(messages).map(cf -> {
        io.vertx.core.json.JsonArray list = new io.vertx.core.json.JsonArray();
        for (int i = 0; i < cf.size(); i++) {
          list.add(cf.resultAt(i));
        }
        return new JsonObject().put("sessionId", sessionId).put("messages", list);
      });
    });
  }

  /** One conversation entry as the API shows it; a model response carries its tool calls' results. */
  private Future<JsonObject> conversationMessage(String sessionId, JsonObject e) {
    switch (e.getString("type", "")) {
      case "user":
        return Future.succeededFuture(new JsonObject().put("role", "user").put("messageId", e.getString("messageId"))
            .put("text", e.getString("text")).put("at", e.getLong("at")));
      case "model": {
        JsonObject response = e.getJsonObject("response", new JsonObject());
        JsonObject m = new JsonObject().put("role", "assistant").put("kind", "model_response")
            .put("step", e.getLong("step")).put("at", e.getLong("at"));
        if (response.getString("text") != null) {
          m.put("text", response.getString("text"));
        }
        String turnId = e.getString("turnId");
        if (turnId == null) {
          return Future.succeededFuture(m);
        }
        m.put("turnId", turnId).put("toolCalls", response.getJsonArray("toolCalls"));
        return journal.turnResult(sessionId, turnId).map(r -> r == null ? m.put("turnStatus", "running")
            : m.put("turnStatus", "completed").put("results", r.toJson().getJsonArray("results")));
      }
      default: {
        JsonObject m = new JsonObject().put("role", "assistant").put("kind", "final")
            .put("status", e.getString("status")).put("step", e.getLong("step", 0L)).put("at", e.getLong("at"));
        if (e.getString("text") != null) {
          m.put("text", e.getString("text"));
        }
        if (e.getString("error") != null) {
          m.put("error", e.getString("error"));
        }
        return Future.succeededFuture(m);
      }
    }
  }

  @Override
  public Future<DecisionAnswer> decide(ApprovalDecision decision) {
    return SessionEngine.journalDecision(journal, agent -> {
      AgentVersions versions = agents.get(agent);
      return versions == null ? null : versions.current();
    }, decision)
        .onSuccess(answer -> {
          if (answer == DecisionAnswer.ACCEPTED) {
            vertx.eventBus().publish(Addresses.APPROVAL_DECIDED, new JsonObject()
                .put("sessionId", decision.sessionId()).put("callId", decision.callId().value()));
          }
        });
  }

  @Override
  public Future<List<ApprovalRequest>> pendingApprovals() {
    return journal.pendingApprovals(1000);
  }

  @Override
  public Future<CallResult> reconcile(String sessionId, CallId callId, Outcome outcome, String who, String note) {
    return journal.reconcile(sessionId, callId, outcome, who, note).onSuccess(r ->
        vertx.eventBus().publish(Addresses.events(sessionId), new JsonObject().put("type", EventType.CALL_RECONCILED.wireName())
            .put("sessionId", sessionId).put("callId", callId.value()).put("at", System.currentTimeMillis())
            .put("data", r.toJson())));
  }

  @Override
  public JournalQueries journal() {
    return journal;
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
    return manager.active();
  }

  /** Sessions the session manager holds anything for: running, starting or being passivated. */
  public int trackedSessions() {
    return manager.tracked();
  }

  @Override
  public Future<Boolean> eraseSession(String sessionId, String who) {
    return sweeper.erase(sessionId, who).compose(known -> manager.stop(sessionId).map(known));
  }

  @Override
  public JsonObject retentionSettings() {
    RetentionOptions r = options.retention();
    JsonObject perAgent = new JsonObject();
    agents.keySet().stream().sorted().forEach(a -> perAgent.put(a, sweeper.policyFor(a).toJson()
        .put("own", agents.get(a).definition().retention() != null)));
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
    if (takeoverTimer >= 0) {
      vertx.cancelTimer(takeoverTimer);
    }
    Future<Void> api = apiDeployment == null ? Future.succeededFuture()
        : apiDeployment.compose(vertx::undeploy).otherwiseEmpty();
    return api.compose(v -> leave())
        .compose(v -> {
          members.close();
          return router.close().otherwiseEmpty();
        })
        .compose(v -> manager.close()).compose(v -> journal.close());
  }

  /**
   * A member leaving a cluster that others stay in hands its sessions over rather than dropping
   * them: it takes no new session (its API is already stopped), and passes each session it runs to
   * the member placement gives it to once nothing of it is in flight. docs/ARCHITECTURE.md, "More
   * than one node".
   */
  private Future<Void> leave() {
    members.leave();
    if (!members.clustered() || members.live().isEmpty() || options.leaveTimeoutMillis() <= 0) {
      return Future.succeededFuture();
    }
    long started = System.currentTimeMillis();
    int running = manager.active();
    java.util.concurrent.atomic.AtomicInteger handedOver = new java.util.concurrent.atomic.AtomicInteger();
    LOG.info("cluster: leaving; handing {} running session(s) over to {} as each parks", running, members.live());
    return manager.leave(options.leaveTimeoutMillis(), (sessionId, agent) -> router.handOver(agent, sessionId)
            .onSuccess(to -> handedOver.incrementAndGet())
            .onFailure(err -> LOG.warn("cluster: could not hand session {} over: {}; the others take it over"
                + " once this member has left", sessionId, err.getMessage())))
        .map(left -> {
          if (left > 0) {
            LOG.warn("cluster: {} session(s) still busy after {} ms (cluster.leaveTimeoutMillis); the others take"
                + " them over as after a crash", left, options.leaveTimeoutMillis());
          }
          LOG.info("cluster: left in {} ms: {} session(s) handed over, the idle ones passivated",
              System.currentTimeMillis() - started, handedOver.get());
          return null;
        });
  }
}
