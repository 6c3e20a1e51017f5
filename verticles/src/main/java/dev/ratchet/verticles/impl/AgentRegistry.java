package dev.ratchet.verticles.impl;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.journal.JournalQueries;
import dev.ratchet.runtime.retention.RetentionSweeper;
import dev.ratchet.runtime.session.AgentTable;
import dev.ratchet.runtime.session.AgentVersions;
import dev.ratchet.runtime.session.SessionManager;
import dev.ratchet.runtime.session.SessionVerticle;
import dev.ratchet.verticles.impl.cluster.ClusterMembers;
import dev.ratchet.verticles.impl.cluster.Takeover;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

/**
 * A node's agents: registering and replacing definitions, and resuming the sessions of each that
 * the journal holds in flight, at start and, in a cluster, when members leave.
 */
final class AgentRegistry {

  private static final Logger LOG = LoggerFactory.getLogger(AgentRegistry.class);
  /** Most sessions recovery starts at once; more would only queue for the journal's connections. */
  static final int RECOVERY_WINDOW = 4096;

  private final Vertx vertx;
  private final JournalQueries journal;
  private final SessionManager sessions;
  private final ClusterMembers members;
  private final RetentionSweeper sweeper;
  private final AgentTable agents;
  private final BooleanSupplier ready;
  private final ToolsChanged toolsChanged;
  private final LongAdder takeovers = new LongAdder();
  private long takeoverTimer = -1;

  AgentRegistry(Vertx vertx, JournalQueries journal, SessionManager sessions, ClusterMembers members,
                RetentionSweeper sweeper, AgentTable agents, BooleanSupplier ready) {
    this.vertx = vertx;
    this.journal = journal;
    this.sessions = sessions;
    this.members = members;
    this.sweeper = sweeper;
    this.agents = agents;
    this.ready = ready;
    this.toolsChanged = new ToolsChanged(vertx, agents);
  }

  Future<ToolCatalog> register(AgentDefinition agent) {
    return ToolCatalog.resolve(vertx, agent).compose(catalog -> {
      AgentVersions versions;
      try {
        versions = agents.add(agent, catalog);
      } catch (RatchetException e) {
        return Future.failedFuture(e);
      }
      sweeper.policy(agent.name(), agent.retention());
      toolsChanged.follow(agent);
      return recover(versions).map(catalog);
    });
  }

  Future<List<ToolCatalog>> define(List<AgentDefinition> definitions) {
    Set<String> names = new HashSet<>();
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
          AgentVersions raced = agents.addIfAbsent(added);
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

  /** Claims a session here and resumes its turns in flight, as a member handing it over asks. */
  Future<Void> resume(String agent, String sessionId) {
    AgentVersions catalog = agents.get(agent);
    if (catalog == null) {
      return Future.failedFuture(agents.unknown(agent));
    }
    return claim(sessionId, catalog).onSuccess(v -> takeovers.increment()).mapEmpty();
  }

  /**
   * The session started here; a copy already running here that another member has claimed since
   * is replaced by a fresh claim, so that the turns in flight resume (SessionManager#sessionAt).
   */
  private Future<SessionVerticle> claim(String sessionId, AgentVersions catalog) {
    if (sessions.running(sessionId) == null) {
      return sessions.session(sessionId, catalog);
    }
    return journal.currentEpoch(sessionId).compose(epoch -> sessions.sessionAt(sessionId, catalog, epoch));
  }

  /** Sessions this node took over from members that left. */
  long takeovers() {
    return takeovers.sum();
  }

  /**
   * Resumes every session of this agent that the journal holds in flight. The sessions' agents are
   * read in pipelines rather than one round trip each; the sessions then start together, at most
   * {@link #RECOVERY_WINDOW} at a time, and their claims and in-flight turns are read in shared
   * pipelines too.
   */
  private Future<Void> recover(AgentVersions catalog) {
    if (members.clustered() && !ready.getAsBoolean()) {
      // placement does not count this member yet: markReady takes its share over
      return Future.succeededFuture();
    }
    long started = System.currentTimeMillis();
    return journal.activeSessions().compose(journal::sessionAgents).compose(agentsById -> {
      List<String> ofAgent = new ArrayList<>();
      agentsById.forEach((id, agent) -> {
        // in a cluster, a session running here may be an out-of-date copy: Takeover decides by its owner
        if (catalog.agent().equals(agent) && (members.clustered() || sessions.running(id) == null)) {
          ofAgent.add(id);
        }
      });
      return Takeover.claimable(journal, members, ofAgent);
    }).compose(mine -> {
      if (mine.isEmpty()) {
        return Future.succeededFuture();
      }
      Promise<Void> all = Promise.promise();
      AtomicInteger next = new AtomicInteger();
      AtomicInteger left = new AtomicInteger(mine.size());
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
  private void startNext(AgentVersions catalog, List<String> ids, AtomicInteger next, AtomicInteger left,
                         Promise<Void> all) {
    int i;
    while ((i = next.getAndIncrement()) < ids.size()) {
      Future<SessionVerticle> started = claim(ids.get(i), catalog);
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

  private static void settled(AtomicInteger left, Promise<Void> all) {
    if (left.decrementAndGet() == 0) {
      all.complete();
    }
  }

  /**
   * In a cluster: when members leave, and every {@link Takeover#SWEEP_MILLIS} in case a change went
   * unnoticed, resumes the sessions in flight that have no live owner and that placement gives to
   * this node.
   */
  void followMembers() {
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

  void takeOver() {
    agents.all().forEach(versions -> recover(versions).onFailure(err -> LOG.warn(
        "cluster: could not take over sessions of agent {}: {}", versions.agent(), err.getMessage())));
  }

  void close() {
    if (takeoverTimer >= 0) {
      vertx.cancelTimer(takeoverTimer);
    }
  }
}
