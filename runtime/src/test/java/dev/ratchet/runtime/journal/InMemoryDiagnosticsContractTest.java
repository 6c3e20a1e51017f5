package dev.ratchet.runtime.journal;

import io.vertx.core.Vertx;

/** The TCK of the journal's health against the in-memory journal. */
class InMemoryDiagnosticsContractTest extends JournalDiagnosticsContract {

  @Override
  protected SessionJournal open(Vertx vertx) {
    return InMemoryJournal.create(vertx);
  }
}
