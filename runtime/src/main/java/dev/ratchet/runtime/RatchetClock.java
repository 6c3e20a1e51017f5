package dev.ratchet.runtime;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;

/**
 * Where the engine reads the time and sets its timers: approval time-outs, retry back-offs, call
 * time-outs and the times written into the journal. In production it is the wall clock with Vert.x
 * timers ({@link #system(Vertx)}); a test hands the runtime a clock it moves by hand, so that a
 * time-out fires without waiting for it and "nothing happened before the deadline" is shown by not
 * moving past it, never by sleeping.
 */
public interface RatchetClock {

  /** The wall clock and Vert.x's own timers. */
  static RatchetClock system(Vertx vertx) {
    return new dev.ratchet.runtime.impl.SystemClock(vertx);
  }

  /** Milliseconds since the epoch, as {@link System#currentTimeMillis()}. */
  long millis();

  /**
   * Calls {@code handler} once, on the context that was current when the timer was set (or an event
   * loop when none was), after {@code delayMillis} of this clock's time; answers the timer's id.
   */
  long setTimer(long delayMillis, Handler<Long> handler);

  /** Cancels a timer set by {@link #setTimer}; answers whether it was still pending. */
  boolean cancelTimer(long id);
}
