package dev.ratchet.runtime;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A {@link RatchetClock} for tests that moves only when told to, as Temporal's test environment
 * skips time: an approval that expires in a day expires at the {@link #advance} that passes it, at
 * once, and not one millisecond before. A test shows that nothing happened before a deadline by
 * moving up to it, never by sleeping. Not for production: nothing moves it but the test.
 *
 * <p>Thread-safe: the test thread moves it while the runtime's event loops read it and set timers.
 */
public final class MovableClock implements RatchetClock {

  private final Vertx vertx;
  private final TreeSet<Timer> timers = new TreeSet<>(Comparator.comparingLong(Timer::due)
      .thenComparingLong(Timer::id));
  private final Map<Long, Timer> byId = new HashMap<>();
  private final List<Watcher> watchers = new ArrayList<>();
  private long now;
  /** Where the last requested move ends; moves run one after the other. */
  private long movingTo;
  private Future<Void> moves = Future.succeededFuture();
  private long nextId;

  private record Timer(long id, long due, Context context, Handler<Long> handler) {
  }

  private record Watcher(int count, Promise<Void> promise) {
  }

  private MovableClock(Vertx vertx, Instant start) {
    this.vertx = vertx;
    this.now = start.toEpochMilli();
    this.movingTo = now;
  }

  /**
   * A clock standing at {@code start}; a timer set outside any Vert.x context fires on a context of
   * {@code vertx}.
   */
  public static MovableClock startingAt(Vertx vertx, Instant start) {
    return new MovableClock(vertx, start);
  }

  @Override
  public synchronized long millis() {
    return now;
  }

  /** The clock's time as an instant. */
  public Instant instant() {
    return Instant.ofEpochMilli(millis());
  }

  /** A timer of delay 0 or less falls due one millisecond on, as a Vert.x timer does. */
  @Override
  public long setTimer(long delayMillis, Handler<Long> handler) {
    Context current = Vertx.currentContext();
    Context context = current != null ? current : vertx.getOrCreateContext();
    List<Promise<Void>> reached = new ArrayList<>();
    long id;
    synchronized (this) {
      id = ++nextId;
      Timer timer = new Timer(id, now + Math.max(1, delayMillis), context, handler);
      timers.add(timer);
      byId.put(id, timer);
      watchers.removeIf(w -> {
        if (w.count() <= timers.size()) {
          reached.add(w.promise());
          return true;
        }
        return false;
      });
    }
    reached.forEach(Promise::tryComplete);
    return id;
  }

  @Override
  public synchronized boolean cancelTimer(long id) {
    Timer timer = byId.remove(id);
    return timer != null && timers.remove(timer);
  }

  /** How many timers are set and have neither fired nor been cancelled. */
  public synchronized int pendingTimers() {
    return timers.size();
  }

  /**
   * Completes once at least {@code count} timers are pending: the signal that the runtime has set
   * the timer a test is about to move past, so that the move is not made before it exists.
   */
  public Future<Void> whenPending(int count) {
    Promise<Void> promise = Promise.promise();
    synchronized (this) {
      if (timers.size() < count) {
        watchers.add(new Watcher(count, promise));
        return promise.future();
      }
    }
    promise.complete();
    return promise.future();
  }

  /**
   * Moves the clock on by {@code by} and fires every timer that falls due on the way, in the order
   * they fall due, each on the context it was set from, with {@link #millis()} reading its due time
   * while it runs; a timer one of them sets that falls due within the move fires too. Completes
   * once those handlers ran (what they started may still be under way). Moves requested together
   * run one after the other.
   */
  public Future<Void> advance(Duration by) {
    long millis = by.toMillis();
    if (millis < 0) {
      throw new IllegalArgumentException("a clock only moves forward: " + by);
    }
    synchronized (this) {
      long target = movingTo + millis;
      movingTo = target;
      moves = moves.transform(ignored -> fireUntil(target));
      return moves;
    }
  }

  /** Moves the clock to {@code instant}, as {@link #advance} by the time between. */
  public Future<Void> advanceTo(Instant instant) {
    synchronized (this) {
      long target = instant.toEpochMilli();
      if (target < movingTo) {
        throw new IllegalArgumentException("a clock only moves forward: " + instant + " is before "
            + Instant.ofEpochMilli(movingTo));
      }
      return advance(Duration.ofMillis(target - movingTo));
    }
  }

  private Future<Void> fireUntil(long target) {
    Timer next;
    synchronized (this) {
      next = timers.isEmpty() || timers.first().due() > target ? null : timers.pollFirst();
      if (next == null) {
        now = Math.max(now, target);
        return Future.succeededFuture();
      }
      byId.remove(next.id());
      now = Math.max(now, next.due());
    }
    Promise<Void> ran = Promise.promise();
    next.context().runOnContext(v -> {
      try {
        next.handler().handle(next.id());
      } finally {
        ran.complete();
      }
    });
    return ran.future().compose(v -> fireUntil(target));
  }
}
