package dev.ratchet.runtime.journal;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** The in-memory journal's health: it answers while the process runs, and keeps no figures. */
record MemoryDiagnostics(MemoryStore store, Vertx vertx) implements JournalDiagnostics {

  @Override
  public Future<Void> reachable() {
    return store.step(vertx, () -> null);
  }

  @Override
  public Future<Void> ping() {
    return store.step(vertx, () -> null);
  }

  @Override
  public String describe() {
    return "in-memory journal";
  }
}
