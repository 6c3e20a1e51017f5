package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.RatchetClock;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * A journal in this process's memory, with the Redis journal's contracts (fencing, exactly-once
 * outcomes, idempotent submits, approvals, the same events): for engine tests that check rules
 * rather than Redis, and for applications' own tests. Nothing survives the process, so it gives
 * none of the durability a deployment needs. Each step runs whole under the store's lock, and its
 * answer arrives on the caller's Vert.x context afterwards, as a Redis reply would. Like
 * {@link RedisJournal} it offers the optional ports by name ({@link #queries()},
 * {@link #retention()}, {@link #diagnostics()}); its parts, by role as {@link JournalRoles} hands
 * them the port's methods: the store in {@link MemoryStore}, the steps of turns and calls in
 * {@link MemoryTurnSteps}, of decisions in {@link MemoryDecisionSteps}, of the agent loop in
 * {@link MemoryLoopSteps}, reads in {@link MemoryQueries}.
 */
public final class InMemoryJournal extends JournalRoles {

  private final MemoryStore store;
  private final Vertx vertx;
  private final MemoryQueries queries;
  private final MemoryRetentionSteps retention;
  private final MemoryDiagnostics diagnostics;

  private InMemoryJournal(Vertx vertx, MemoryStore store, MemoryQueries queries) {
    super(queries, new MemoryTurnSteps(store, vertx), new MemoryDecisionSteps(store, vertx),
        new MemoryLoopSteps(store, vertx));
    this.vertx = vertx;
    this.store = store;
    this.queries = queries;
    this.retention = new MemoryRetentionSteps(store, vertx);
    this.diagnostics = new MemoryDiagnostics(store, vertx);
  }

  private static InMemoryJournal over(Vertx vertx, MemoryStore store) {
    return new InMemoryJournal(vertx, store, new MemoryQueries(store, vertx));
  }

  /**
   * An empty journal. Answers arrive on the caller's context; for callers outside any context, on a
   * context of {@code vertx}. One journal may serve engines of several Vert.x instances, as one
   * Redis serves several nodes.
   */
  public static InMemoryJournal create(Vertx vertx) {
    return create(vertx, RatchetClock.system(vertx));
  }

  /**
   * As {@link #create(Vertx)}, reading the time of its steps and of approval expiry from
   * {@code clock}: the engines over it should run on the same clock.
   */
  public static InMemoryJournal create(Vertx vertx, RatchetClock clock) {
    return over(vertx, new MemoryStore(clock));
  }

  /**
   * A journal over the memory of {@code other}, as a second client of the same Redis: each sees what
   * the other journaled, and it keeps doing so after {@code other} is closed (a restart, in a test).
   * It reads time from the clock of {@code other}.
   */
  public static InMemoryJournal sharing(Vertx vertx, InMemoryJournal other) {
    return over(vertx, other.store);
  }

  // ---------------------------------------------------------------- the optional ports

  /** The journal's read side. */
  public JournalQueries queries() {
    return queries;
  }

  /** Retention, erasure and import. */
  public JournalRetention retention() {
    return retention;
  }

  /** The journal's health: reachable while the process runs. */
  public JournalDiagnostics diagnostics() {
    return diagnostics;
  }

  // ---------------------------------------------------------------- ownership

  @Override
  public Future<ClaimedSession> claim(String sessionId, String owner) {
    return store.step(vertx, () -> {
      store.retention.notForgotten(sessionId);
      MemorySession s = store.sessions.computeIfAbsent(sessionId, id -> new MemorySession());
      s.epoch++;
      s.owner = owner;
      s.append(EventType.SESSION_CLAIMED.wireName(), null, null, store.now(),
          new JsonObject().put("owner", owner).put("epoch", s.epoch).encode());
      return new ClaimedSession(s.epoch, s.caller, MemoryReads.inflight(sessionId, s));
    });
  }

  @Override
  public Future<Void> markIdle(String sessionId, long epoch) {
    return store.step(vertx, () -> {
      MemorySession s = store.sessions.get(sessionId);
      if (s != null && s.epoch == epoch) {
        store.active.remove(sessionId);
      }
      return null;
    });
  }

  /** Nothing to release; the memory stays with every journal that shares it. */
  @Override
  public Future<Void> close() {
    return Future.succeededFuture();
  }
}
