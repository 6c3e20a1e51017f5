package dev.ratchet.runtime.journal;

import io.vertx.core.Vertx;

/** The TCK of the journal's read side against the in-memory journal. */
class InMemoryQueriesContractTest extends JournalQueriesContract {

  private final InMemoryJournals journals = new InMemoryJournals();

  @Override
  protected SessionJournal open(Vertx vertx) {
    return journals.open(vertx);
  }
}
