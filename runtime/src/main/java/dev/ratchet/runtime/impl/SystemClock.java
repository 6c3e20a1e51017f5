package dev.ratchet.runtime.impl;

import dev.ratchet.runtime.RatchetClock;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;

/** The production {@link RatchetClock}: the wall clock and Vert.x timers. */
public final class SystemClock implements RatchetClock {

  private final Vertx vertx;

  public SystemClock(Vertx vertx) {
    this.vertx = vertx;
  }

  @Override
  public long millis() {
    return System.currentTimeMillis();
  }

  @Override
  public long setTimer(long delayMillis, Handler<Long> handler) {
    return vertx.setTimer(Math.max(1, delayMillis), handler);
  }

  @Override
  public boolean cancelTimer(long id) {
    return vertx.cancelTimer(id);
  }
}
