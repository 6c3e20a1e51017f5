package dev.ratchet.runtime.journal;

import io.vertx.core.Vertx;

/** The journal TCK against the in-memory journal. */
class InMemoryJournalContractTest extends SessionJournalContract {

  private final InMemoryJournals journals = new InMemoryJournals();

  @Override
  protected SessionJournal open(Vertx vertx) {
    return journals.open(vertx);
  }
}
