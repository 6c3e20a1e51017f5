package dev.ratchet.runtime.session;

import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.RatchetClock;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.engine.EngineOptions;
import dev.ratchet.runtime.journal.SessionJournal;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * Routes work to session verticles: deploys one on the first message for a session, and
 * passivates it when idle (one sweep over all sessions finds the idle ones). A session being
 * passivated is redeployed only once its verticle has fully stopped, so two verticles never run
 * one session on this node. Both a deployed node and an in-memory Ratchet host their sessions here.
 */
public final class SessionManager {

  private static final Logger LOG = LoggerFactory.getLogger(SessionManager.class);

  private record Deployment(Future<SessionVerticle> verticle, Future<String> id) {
  }

  private final Vertx vertx;
  final SessionJournal journal;
  final EngineOptions options;
  final String nodeId;
  final long idleMillis;
  final SessionHooks hooks;
  final RatchetClock clock;
  private final io.vertx.core.Context home;
  private final Map<String, Deployment> sessions = new ConcurrentHashMap<>();
  private final Map<String, Future<Void>> passivating = new ConcurrentHashMap<>();
  private final long sweepTimer;
  private volatile boolean leaving;
  private final java.util.concurrent.atomic.AtomicInteger handingOver = new java.util.concurrent.atomic.AtomicInteger();

  /**
   * Sessions of owner {@code nodeId} on {@code journal}, passivated after {@code idleMillis} without
   * work; what they produce beyond the journal goes to {@code hooks}.
   */
  public SessionManager(Vertx vertx, SessionJournal journal, EngineOptions options, String nodeId, long idleMillis,
                        SessionHooks hooks, RatchetClock clock) {
    this.vertx = vertx;
    this.journal = journal;
    this.options = options;
    this.nodeId = nodeId;
    this.idleMillis = idleMillis;
    this.hooks = hooks;
    this.clock = clock;
    this.home = vertx.getOrCreateContext();
    long period = Math.max(50, Math.min(idleMillis / 2, 5_000));
    this.sweepTimer = vertx.setPeriodic(period, t -> sweep());
  }

  /**
   * Hands a journaled decision to its session if it runs here, or once it has started if it is
   * starting: whichever node journaled the decision, the session's owner is told this way.
   */
  public void approvalDecided(String sessionId, CallId callId) {
    Deployment d = sessions.get(sessionId);
    if (d != null) {
      d.verticle().onSuccess(v -> v.approvalDecided(callId));
    }
  }

  /**
   * One timer for all sessions instead of one each: visits, on its own context, each running
   * session that may be idle long enough or fenced; the session then asks to be passivated. The
   * others read the decisions their waiting calls may have missed: a decision's wake-up from
   * another node can be lost, so a journaled decision is acted on within one sweep period.
   */
  private void sweep() {
    long now = clock.millis();
    for (Deployment d : sessions.values()) {
      Future<SessionVerticle> v = d.verticle();
      if (v.succeeded() && v.result().mayBeDone(now)) {
        v.result().checkIdle();
      } else if (v.succeeded()) {
        v.result().recheckApprovals();
      }
    }
  }

  public int active() {
    return sessions.size();
  }

  /** Sessions this manager holds anything for: deployed, deploying or being passivated. */
  public int tracked() {
    return sessions.size() + passivating.size();
  }

  /** Whether this node runs the session now, or is starting it. */
  public boolean holds(String sessionId) {
    return sessions.containsKey(sessionId);
  }

  /**
   * The session's verticle, deployed (and its in-flight turns resumed) if it is not running. A
   * node leaving the cluster starts no session: it fails with {@code NODE_UNAVAILABLE}.
   */
  public Future<SessionVerticle> session(String sessionId, AgentVersions catalog) {
    if (leaving && !sessions.containsKey(sessionId)) {
      return Future.failedFuture(new RatchetException(ErrorCode.NODE_UNAVAILABLE, "this member is leaving the"
          + " cluster and starts no session; session '" + sessionId + "' runs on another member"));
    }
    Deployment d = sessions.get(sessionId);
    if (d == null) {
      Promise<SessionVerticle> ready = Promise.promise();
      Promise<String> deploymentId = Promise.promise();
      Deployment fresh = new Deployment(ready.future(), deploymentId.future());
      // in the map before it starts: a start that fails at once, on any thread, must find it there to remove it
      d = sessions.putIfAbsent(sessionId, fresh);
      if (d == null) {
        d = fresh;
        deploy(sessionId, catalog, fresh, ready, deploymentId);
      }
    }
    return d.verticle().compose(v -> {
      if (!v.agent().equals(catalog.agent())) {
        return Future.failedFuture(new RatchetException(ErrorCode.AGENT_MISMATCH, "session '" + sessionId
            + "' belongs to agent '" + v.agent() + "', not '" + catalog.agent() + "'"));
      }
      return Future.succeededFuture(v);
    });
  }

  /**
   * As {@link #session}, except that a copy running here under an epoch other than
   * {@code currentEpoch}, the session's current one in the journal, is stopped first and the
   * session claimed afresh: another member claimed it since (J4), so that copy could write
   * nothing, and the turns in flight it does not know of would otherwise wait for the session's next
   * request. docs/ARCHITECTURE.md, "More than one node".
   */
  public Future<SessionVerticle> sessionAt(String sessionId, AgentVersions catalog, long currentEpoch) {
    SessionVerticle here = running(sessionId);
    if (here == null || here.epoch() == currentEpoch) {
      return session(sessionId, catalog);
    }
    LOG.info("session {}: the copy here (epoch {}) is out of date (epoch {}); claiming it afresh", sessionId,
        here.epoch(), currentEpoch);
    Promise<Void> stopped = Promise.promise();
    stopThen(here, stopped::complete);
    return stopped.future().compose(v -> session(sessionId, catalog));
  }

  /** The session's verticle if it runs on this node now. */
  public SessionVerticle running(String sessionId) {
    Deployment d = sessions.get(sessionId);
    return d != null && d.verticle().succeeded() ? d.verticle().result() : null;
  }

  private void deploy(String sessionId, AgentVersions catalog, Deployment deployment, Promise<SessionVerticle> ready,
                      Promise<String> deploymentId) {
    Future<Void> before = passivating.getOrDefault(sessionId, Future.succeededFuture());
    SessionVerticle verticle = new SessionVerticle(this, sessionId, catalog);
    before.otherwiseEmpty()
        .compose(v -> deployFromHome(verticle))
        .onComplete(deploymentId)
        .map(verticle)
        .onComplete(ar -> {
          if (ar.failed()) {
            LOG.warn("session {} could not start: {}", sessionId, ar.cause().getMessage());
            sessions.remove(sessionId, deployment);
          }
        })
        .onComplete(ready);
  }

  /**
   * Deploys from the manager's own context: deployed from whatever context completed the previous
   * step (for example a passivated session's), a session would become that deployment's child.
   */
  private Future<String> deployFromHome(SessionVerticle verticle) {
    Promise<String> deployed = Promise.promise();
    home.runOnContext(v -> vertx.deployVerticle(verticle, new DeploymentOptions()).onComplete(deployed));
    return deployed.future();
  }

  /**
   * Undeploys the session's verticle, then runs {@code after}, on the undeploying context; at once
   * when this verticle no longer runs the session here (a leaving member hands it over all the same).
   */
  private void stopThen(SessionVerticle verticle, Runnable after) {
    String sessionId = verticle.sessionId();
    Deployment d = sessions.get(sessionId);
    if (d == null || !d.verticle().succeeded() || d.verticle().result() != verticle) {
      after.run();
      return;
    }
    Promise<Void> undeployed = Promise.promise();
    // registered before the session leaves the map, so a new deployment always waits for this one
    passivating.put(sessionId, undeployed.future());
    sessions.remove(sessionId, d);
    d.id().compose(vertx::undeploy).onComplete(undeployed);
    undeployed.future().onComplete(ar -> {
      passivating.remove(sessionId, undeployed.future());
      after.run();
    });
  }

  /**
   * Leaving the cluster: every session stops taking turns to run here, and each is passivated once
   * idle or handed over ({@code handOver}, with its id and agent, after its verticle stopped) once
   * parked, checked every {@link #LEAVE_CHECK_MILLIS}. Completes when no session is left here, or
   * after {@code timeoutMillis} with the count of those still here: {@link #close} stops them as a
   * crash would, and the other members take them over.
   */
  public Future<Integer> leave(long timeoutMillis, BiFunction<String, String, Future<?>> handOver) {
    leaving = true;
    long deadline = System.currentTimeMillis() + timeoutMillis;
    Promise<Integer> left = Promise.promise();
    home.runOnContext(v -> leaveStep(deadline, handOver, left));
    return left.future();
  }

  static final long LEAVE_CHECK_MILLIS = 100;

  private void leaveStep(long deadline, BiFunction<String, String, Future<?>> handOver,
                         Promise<Integer> left) {
    if (sessions.isEmpty() && passivating.isEmpty() && handingOver.get() == 0
        || System.currentTimeMillis() >= deadline) {
      left.complete(sessions.size());
      return;
    }
    for (Deployment d : sessions.values()) {
      d.verticle().onSuccess(verticle -> verticle.leave((session, state) -> {
        if (state == SessionVerticle.Leave.IDLE) {
          passivate(session);
        } else {
          handingOver.incrementAndGet();
          stopThen(session, () -> handOver.apply(session.sessionId(), session.agent())
              .onComplete(ar -> handingOver.decrementAndGet()));
        }
      }));
    }
    vertx.setTimer(LEAVE_CHECK_MILLIS, t -> leaveStep(deadline, handOver, left));
  }

  /**
   * Stops the session's verticle if it runs here, without waiting for it to be idle: an erased
   * session's next request then finds the erasure when it claims the session again.
   */
  public Future<Void> stop(String sessionId) {
    SessionVerticle v = running(sessionId);
    if (v == null) {
      return Future.succeededFuture();
    }
    Promise<Void> stopped = Promise.promise();
    stopThen(v, stopped::complete);
    return stopped.future();
  }

  void passivate(SessionVerticle verticle) {
    stopThen(verticle, () -> { });
  }

  public Future<Void> close() {
    vertx.cancelTimer(sweepTimer);
    Future<?>[] all = sessions.values().stream().map(d -> d.id().compose(vertx::undeploy).otherwiseEmpty())
        .toArray(Future[]::new);
    sessions.clear();
    return Future.join(java.util.List.of(all)).mapEmpty();
  }
}
