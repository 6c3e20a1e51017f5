package dev.ratchet.runtime.journal;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.function.Supplier;

/**
 * The in-memory journal's retention port: {@link MemoryRetention}'s rules, each run as a step under
 * the store's lock, with the indexes of the store (recovery, the inbox) kept in step.
 */
record MemoryRetentionSteps(MemoryStore store, Vertx vertx) implements JournalRetention {

  @Override
  public Future<List<SessionActivity>> activeSince(long since, int limit) {
    return step(() -> store.retention.activeSince(since, limit));
  }

  @Override
  public Future<Void> schedule(String sessionId, long dueAt) {
    return step(() -> {
      store.retention.schedule(sessionId, dueAt);
      return null;
    });
  }

  @Override
  public Future<List<String>> due(long now, int limit) {
    return step(() -> store.retention.due(now, limit));
  }

  @Override
  public Future<SessionHistory> history(String sessionId) {
    return step(() -> store.retention.history(sessionId));
  }

  @Override
  public Future<Removal> remove(String sessionId, long epoch, RemovalPlan plan) {
    return step(() -> store.retention.remove(sessionId, store.fenced(sessionId, epoch), plan));
  }

  @Override
  public Future<Boolean> forget(String sessionId, long epoch, long seenUpdatedAt, long archivedBefore) {
    return step(() -> {
      boolean forgotten = store.retention.forget(sessionId, store.fenced(sessionId, epoch), seenUpdatedAt, archivedBefore);
      if (forgotten) {
        store.active.remove(sessionId);
      }
      return forgotten;
    });
  }

  @Override
  public Future<Void> refuseForgotten() {
    return Future.succeededFuture();
  }

  @Override
  public Future<Boolean> erase(String sessionId, String who) {
    return step(() -> {
      store.active.remove(sessionId);
      store.pending.removeIf(p -> p.member().startsWith(sessionId + "\n"));
      return store.retention.erase(sessionId, who);
    });
  }

  @Override
  public Future<List<JsonObject>> audit(int count) {
    return step(() -> store.retention.audit(count));
  }

  @Override
  public Future<Integer> importSession(SessionHistory history) {
    return step(() -> store.retention.importSession(history));
  }

  private <T> Future<T> step(Supplier<T> step) {
    return store.step(vertx, step);
  }
}
