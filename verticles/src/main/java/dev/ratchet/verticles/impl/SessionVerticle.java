package dev.ratchet.verticles.impl;

import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.engine.EngineOptions;
import dev.ratchet.runtime.engine.SessionEngine;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.verticles.Addresses;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;

import java.util.function.Consumer;

/**
 * The one verticle that runs a session: it owns the session's engine (and so its write queue and
 * fencing epoch) on its own event loop, and asks to be passivated when it has been idle long enough.
 */
final class SessionVerticle extends VerticleBase {

  private final RedisJournal journal;
  private final String sessionId;
  private final ToolCatalog catalog;
  private final EngineOptions options;
  private final String nodeId;
  private final long idleMillis;
  private final Consumer<SessionVerticle> onIdle;
  private SessionEngine engine;
  private MessageConsumer<JsonObject> approvals;
  private volatile long lastActivity = System.currentTimeMillis();
  private long idleTimer;

  SessionVerticle(RedisJournal journal, String sessionId, ToolCatalog catalog, EngineOptions options, String nodeId,
                  long idleMillis, Consumer<SessionVerticle> onIdle) {
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
    engine = new SessionEngine(vertx, journal, sessionId, catalog, options,
        event -> vertx.eventBus().publish(events, event));
    approvals = vertx.eventBus().consumer(Addresses.approvalChanged(sessionId), msg -> {
      lastActivity = System.currentTimeMillis();
      engine.approvalChanged(new CallId(msg.body().getString("callId")));
    });
    long period = Math.max(50, Math.min(idleMillis / 2, 5_000));
    idleTimer = vertx.setPeriodic(period, t -> {
      boolean idle = engine.isIdle() && System.currentTimeMillis() - lastActivity >= idleMillis;
      if (idle || engine.isFenced()) {
        vertx.cancelTimer(idleTimer);
        onIdle.accept(this);
      }
    });
    return approvals.completion().compose(v -> engine.start(nodeId));
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(idleTimer);
    boolean idle = engine.isIdle() && !engine.isFenced();
    return engine.stop()
        .compose(v -> approvals.unregister())
        .compose(v -> idle ? journal.markIdle(sessionId) : Future.succeededFuture())
        .otherwiseEmpty();
  }

  /** Journals the turn; the outer future completes once journaled, the inner one with the results. */
  Future<Future<TurnResult>> accept(Turn turn) {
    lastActivity = System.currentTimeMillis();
    return engine.accept(turn).map(result -> {
      result.onComplete(ar -> lastActivity = System.currentTimeMillis());
      return result;
    });
  }

  SessionEngine engine() {
    return engine;
  }
}
