package dev.ratchet.runtime.journal;

import io.vertx.core.Future;

import java.util.Map;

/**
 * The journal store's health and figures, a port of its own beside {@link SessionJournal}: what the
 * health endpoints, the metrics and the start-up line ask of the store. A store's own diagnostics
 * may offer more ({@link RedisDiagnostics}: persistence, replicas, command counts).
 */
public interface JournalDiagnostics {

  /** Succeeds when the journal's store answers a read. */
  Future<Void> reachable();

  /** Succeeds when the journal's store accepts writes: a probe that touches no session. */
  Future<Void> ping();

  /**
   * The store's own figures of one section, for metrics and the benchmark: for Redis, the fields of
   * {@code INFO section}; empty for a store that keeps none.
   */
  default Future<Map<String, String>> info(String section) {
    return Future.succeededFuture(Map.of());
  }

  /** Where the journal is, for logs and errors, with any password hidden. */
  String describe();
}
