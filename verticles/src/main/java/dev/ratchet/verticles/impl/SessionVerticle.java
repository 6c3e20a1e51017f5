package dev.ratchet.verticles.impl;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.agent.AgentLoop;
import dev.ratchet.runtime.agent.AgentReply;
import dev.ratchet.runtime.engine.EngineOptions;
import dev.ratchet.runtime.engine.SessionEngine;
import dev.ratchet.runtime.engine.StepEventListener;
import dev.ratchet.runtime.journal.SessionJournal;
import dev.ratchet.verticles.Addresses;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;

import java.util.function.Consumer;

/**
 * The one verticle that runs a session: it owns the session's engine (and so its write queue and
 * fencing epoch) on its own event loop, and asks to be passivated when the manager's sweep finds it
 * idle long enough (or fenced).
 */
final class SessionVerticle extends VerticleBase {

  private final SessionJournal journal;
  private final String sessionId;
  private final AgentVersions catalog;
  private final EngineOptions options;
  private final String nodeId;
  private final long idleMillis;
  private final Consumer<SessionVerticle> onIdle;
  private SessionEngine engine;
  private AgentLoop loop;

  private volatile long lastActivity = System.currentTimeMillis();
  /** Default delivery, shared: publishing reads it and never changes it. */
  private static final DeliveryOptions PUBLISH = new DeliveryOptions();

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

  SessionVerticle(SessionJournal journal, String sessionId, AgentVersions catalog, EngineOptions options,
                  String nodeId, long idleMillis, Consumer<SessionVerticle> onIdle) {
    this.journal = journal;
    this.sessionId = sessionId;
    this.catalog = catalog;
    this.options = options;
    this.nodeId = nodeId;
    this.idleMillis = idleMillis;
    this.onIdle = onIdle;
  }

  String sessionId() {
    return sessionId;
  }

  String agent() {
    return catalog.agent();
  }

  @Override
  public Future<?> start() {
    String events = Addresses.events(sessionId);
    EventAudience audience = new EventAudience(vertx);
    engine = new SessionEngine(vertx, journal, sessionId, catalog, options, new StepEventListener() {
      @Override
      public boolean wants(String type) {
        return audience.any(events) || EventType.APPROVAL_REQUESTED.wireName().equals(type);
      }

      @Override
      public void accept(JsonObject event) {
        if (audience.any(events)) {
          vertx.eventBus().publish(events, event, PUBLISH);
        }
        ApprovalNotice.publish(vertx, sessionId, event);
      }
    });
    // this node answers the reply addresses of the turns it runs, those it resumes included (docs/EVENT-BUS.md)
    engine.replies((address, turnId, outcome) ->
        vertx.eventBus().send(address, EventBusApi.turnReply(sessionId, turnId, outcome)));
    // the loop's settings (model, limits) are the definition's when the session starts; its tools follow each turn
    AgentDefinition definition = catalog.definition();
    if (definition != null && definition.model() != null) {
      loop = new AgentLoop(vertx, journal, engine, definition, catalog.current(), event -> {
        lastActivity = System.currentTimeMillis();
        if (audience.any(events)) {
          vertx.eventBus().publish(events, event);
        }
      }).replies((address, messageId, outcome) ->
          vertx.eventBus().send(address, EventBusApi.messageReply(sessionId, messageId, outcome)));
    }
    return engine.start(nodeId)
        .compose(v -> loop == null ? Future.succeededFuture() : loop.start())
        .onSuccess(v -> lastActivity = System.currentTimeMillis());
  }

  /**
   * Whether {@link #checkIdle} may find this session idle or fenced; cheap and callable from any
   * thread, so that the manager's sweep visits a session's context only when it may be done.
   */
  boolean mayBeDone(long now) {
    return !closing && (engine.isFenced() || now - lastActivity >= idleMillis);
  }

  /** On this verticle's context: asks to be passivated when idle long enough, or at once when fenced. */
  void checkIdle() {
    context.runOnContext(v -> {
      if (closing) {
        return;
      }
      boolean idle = accepting == 0 && engine.isIdle() && (loop == null || loop.isIdle())
          && System.currentTimeMillis() - lastActivity >= idleMillis;
      if (idle || engine.isFenced()) {
        closing = true;
        onIdle.accept(this);
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
        .compose(v -> idle ? journal.markIdle(sessionId) : Future.succeededFuture())
        .otherwiseEmpty();
  }

  /** Wakes a write of this session that waits for the approval decision journaled for {@code callId}. */
  void approvalDecided(CallId callId) {
    lastActivity = System.currentTimeMillis();
    engine.approvalChanged(callId);
  }

  /**
   * Journals the turn; the outer future completes once journaled, the inner one with the results,
   * which also go to {@code replyAddress} (null: none).
   */
  Future<Future<TurnResult>> accept(Turn turn, String callerId, String creator, String replyAddress) {
    Promise<Future<TurnResult>> accepted = Promise.promise();
    context.runOnContext(v -> {
      if (closing) {
        // lost the race with passivation: the manager deploys a fresh verticle and tries again
        accepted.fail(new RatchetException(ErrorCode.PASSIVATED, "session " + sessionId + " is being passivated"));
        return;
      }
      accepting++;
      lastActivity = System.currentTimeMillis();
      (leaving ? engine.acceptForNextOwner(turn, callerId, creator, replyAddress)
          : engine.accept(turn, callerId, creator, replyAddress))
          .onComplete(ar -> {
        accepting--;
        lastActivity = System.currentTimeMillis();
        if (ar.succeeded()) {
          ar.result().onComplete(done -> lastActivity = System.currentTimeMillis());
        }
        accepted.handle(ar);
      });
    });
    return accepted.future();
  }

  /**
   * Journals a user message for the agent loop; the outer future completes once journaled, the inner
   * with the reply, which also goes to {@code replyAddress} (null: none).
   */
  Future<Future<AgentReply>> message(String messageId, String text, String callerId, String creator,
                                     String replyAddress) {
    Promise<Future<AgentReply>> accepted = Promise.promise();
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
      lastActivity = System.currentTimeMillis();
      loop.accept(messageId, text, callerId, creator, replyAddress).onComplete(ar -> {
        accepting--;
        lastActivity = System.currentTimeMillis();
        accepted.handle(ar);
      });
    });
    return accepted.future();
  }

  SessionEngine engine() {
    return engine;
  }
}
