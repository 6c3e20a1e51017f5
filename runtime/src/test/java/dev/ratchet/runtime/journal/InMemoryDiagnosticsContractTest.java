package dev.ratchet.runtime.journal;

import io.vertx.core.Vertx;

/** The TCK of the journal's health against the in-memory journal. */
class InMemoryDiagnosticsContractTest extends JournalDiagnosticsContract {

  private final InMemoryJournals journals = new InMemoryJournals();

  @Override
  protected SessionJournal open(Vertx vertx) {
    return journals.open(vertx);
  }
}
