package dev.ratchet.runtime.journal;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * The in-memory journal's retention port: {@link MemoryRetention}'s rules, each run as a step under
 * the store's lock, with the indexes of the store (recovery, the inbox) kept in step.
 */
record MemoryRetentionSteps(MemoryStore store, Vertx vertx) implements JournalRetention {

  @Override
  public Future<List<SessionActivity>> activeSince(long since, int limit) {
    return store.step(vertx, () -> store.retention.activeSince(since, limit));
  }

  @Override
  public Future<Void> schedule(String sessionId, long dueAt) {
    return store.step(vertx, () -> {
      store.retention.schedule(sessionId, dueAt);
      return null;
    });
  }

  @Override
  public Future<List<String>> due(long now, int limit) {
    return store.step(vertx, () -> store.retention.due(now, limit));
  }

  @Override
  public Future<SessionHistory> history(String sessionId) {
    return store.step(vertx, () -> store.retention.history(sessionId));
  }

  @Override
  public Future<Removal> remove(String sessionId, long epoch, RemovalPlan plan) {
    return store.step(vertx, () -> store.retention.remove(sessionId, store.fenced(sessionId, epoch), plan));
  }

  @Override
  public Future<Boolean> forget(String sessionId, long epoch, long seenUpdatedAt, long archivedBefore) {
    return store.step(vertx, () -> {
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
    return store.step(vertx, () -> {
      store.active.remove(sessionId);
      store.pending.removeIf(p -> p.member().startsWith(sessionId + "\n"));
      return store.retention.erase(sessionId, who);
    });
  }

  @Override
  public Future<List<JsonObject>> audit(int count) {
    return store.step(vertx, () -> store.retention.audit(count));
  }

  @Override
  public Future<Integer> importSession(SessionHistory history) {
    return store.step(vertx, () -> store.retention.importSession(history));
  }
}
