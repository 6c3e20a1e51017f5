package dev.ratchet.runtime.session;

import dev.ratchet.runtime.Accepted;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.agent.AgentLoop;
import dev.ratchet.runtime.agent.AgentReply;
import dev.ratchet.runtime.engine.SessionEngine;
import dev.ratchet.runtime.engine.StepEventListener;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;

/**
 * The one verticle that runs a session: it owns the session's engine (and so its write queue and
 * fencing epoch) on its own event loop, and asks to be passivated when the manager's sweep finds it
 * idle long enough (or fenced).
 */
public final class SessionVerticle extends VerticleBase {

  private final SessionManager host;
  private final String sessionId;
  private final AgentVersions catalog;
  private SessionEngine engine;
  private AgentLoop loop;

  private volatile long lastActivity;

  private int accepting;
  private volatile boolean closing;
  /** The node is leaving the cluster: new turns are journaled for the next owner, not run here. */
  private boolean leaving;

  /** What a leaving node does with this session now. */
  enum Leave {
    /** Nothing in flight: passivated as when idle. */
    IDLE,
    /** Turns wait only for decisions, or were journaled for the next owner: handed over. */
    PARKED,
    /** A call, a journal step or a model call is in flight: asked again later. */
    BUSY
  }

  SessionVerticle(SessionManager host, String sessionId, AgentVersions catalog) {
    this.host = host;
    this.sessionId = sessionId;
    this.catalog = catalog;
    this.lastActivity = host.clock.millis();
  }

  String sessionId() {
    return sessionId;
  }

  String agent() {
    return catalog.agent();
  }

  @Override
  public Future<?> start() {
    StepEventListener events = host.hooks.events(sessionId);
    engine = new SessionEngine(vertx, host.journal, sessionId, catalog, host.options, events, host.clock);
    // this node answers the reply addresses of the turns it runs, those it resumes included (docs/EVENT-BUS.md)
    engine.replies(host.hooks.replies(sessionId));
    // the loop's settings (model, limits) are the definition's when the session starts; its tools follow each turn
    AgentDefinition definition = catalog.definition();
    if (definition != null && definition.model() != null) {
      loop = new AgentLoop(vertx, host.journal, engine, definition, catalog.current(), event -> {
        lastActivity = host.clock.millis();
        if (events.wants(event.getString("type"))) {
          events.accept(event);
        }
      }).replies(host.hooks.messageReplies(sessionId));
    }
    return engine.start(host.nodeId)
        .compose(v -> loop == null ? Future.succeededFuture() : loop.start())
        .onSuccess(v -> lastActivity = host.clock.millis());
  }

  /**
   * Whether {@link #checkIdle} may find this session idle or fenced; cheap and callable from any
   * thread, so that the manager's sweep visits a session's context only when it may be done.
   */
  boolean mayBeDone(long now) {
    return !closing && (engine.isFenced() || now - lastActivity >= host.idleMillis);
  }

  /** On this verticle's context: asks to be passivated when idle long enough, or at once when fenced. */
  void checkIdle() {
    context.runOnContext(v -> {
      if (closing) {
        return;
      }
      boolean idle = accepting == 0 && engine.isIdle() && (loop == null || loop.isIdle())
          && host.clock.millis() - lastActivity >= host.idleMillis;
      if (idle || engine.isFenced()) {
        closing = true;
        host.passivate(this);
      }
    });
  }

  /**
   * On this verticle's context: from now on takes new turns for the session's next owner only,
   * and, unless something is in flight, asks to be passivated ({@link Leave#IDLE}) or handed over
   * ({@link Leave#PARKED}) through {@code onLeave}. docs/ARCHITECTURE.md, "More than one node".
   */
  void leave(java.util.function.BiConsumer<SessionVerticle, Leave> onLeave) {
    context.runOnContext(v -> {
      leaving = true;
      if (closing || accepting > 0) {
        return;
      }
      boolean loopIdle = loop == null || loop.isIdle();
      Leave state = engine.isFenced() || engine.isIdle() && loopIdle ? Leave.IDLE
          : engine.isParked() && (loop == null || loop.isParkable()) ? Leave.PARKED : Leave.BUSY;
      if (state != Leave.BUSY) {
        closing = true;
        onLeave.accept(this, state);
      }
    });
  }

  @Override
  public Future<?> stop() {
    boolean idle = engine.isIdle() && !engine.isFenced() && (loop == null || loop.isIdle());
    return (loop == null ? Future.<Void>succeededFuture() : loop.stop()).compose(v -> engine.stop())
        .compose(v -> idle ? host.journal.markIdle(sessionId, engine.epoch()) : Future.succeededFuture())
        .otherwiseEmpty();
  }

  /** Wakes the writes of this session whose approval decision is journaled although no wake-up came. */
  void recheckApprovals() {
    if (!closing) {
      engine.recheckApprovals();
    }
  }

  /** Wakes a write of this session that waits for the approval decision journaled for {@code callId}. */
  void approvalDecided(CallId callId) {
    lastActivity = host.clock.millis();
    engine.approvalChanged(callId);
  }

  /**
   * Journals the turn; completes once journaled, with the future of its results, which also go to
   * {@code replyAddress} (null: none).
   */
  Future<Accepted<TurnResult>> accept(Turn turn, String callerId, String creator, String replyAddress) {
    Promise<Accepted<TurnResult>> accepted = Promise.promise();
    context.runOnContext(v -> {
      if (closing) {
        // lost the race with passivation: the manager deploys a fresh verticle and tries again
        accepted.fail(new RatchetException(ErrorCode.PASSIVATED, "session " + sessionId + " is being passivated"));
        return;
      }
      accepting++;
      lastActivity = host.clock.millis();
      (leaving ? engine.acceptForNextOwner(turn, callerId, creator, replyAddress)
          : engine.accept(turn, callerId, creator, replyAddress))
          .onComplete(ar -> {
        accepting--;
        lastActivity = host.clock.millis();
        if (ar.succeeded()) {
          ar.result().result().onComplete(done -> lastActivity = host.clock.millis());
        }
        accepted.handle(ar);
      });
    });
    return accepted.future();
  }

  /**
   * Journals a user message for the agent loop; completes once journaled, with the
   * future of the reply, which also goes to {@code replyAddress} (null: none).
   */
  Future<Accepted<AgentReply>> message(String messageId, String text, String callerId, String creator,
                                     String replyAddress) {
    Promise<Accepted<AgentReply>> accepted = Promise.promise();
    context.runOnContext(v -> {
      if (closing) {
        accepted.fail(new RatchetException(ErrorCode.PASSIVATED, "session " + sessionId + " is being passivated"));
        return;
      }
      if (loop == null) {
        accepted.fail(new RatchetException(ErrorCode.NO_MODEL, "agent '" + catalog.agent()
            + "' has no model; register it with AgentDefinition.Builder.model(...) to send it messages"));
        return;
      }
      accepting++;
      lastActivity = host.clock.millis();
      loop.accept(messageId, text, callerId, creator, replyAddress).onComplete(ar -> {
        accepting--;
        lastActivity = host.clock.millis();
        accepted.handle(ar);
      });
    });
    return accepted.future();
  }

  SessionEngine engine() {
    return engine;
  }

  /** The fencing epoch this copy of the session claimed it with (J4). */
  long epoch() {
    return engine.epoch();
  }
}
