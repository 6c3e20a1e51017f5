package dev.ratchet.runtime.journal;

import io.vertx.core.Vertx;

/** The journal TCK against the in-memory journal. */
class InMemoryJournalContractTest extends SessionJournalContract {

  private InMemoryJournal first;

  @Override
  protected SessionJournal open(Vertx vertx) {
    // a journal opened after the first is another client of the same memory, as a node restarted on the same Redis
    if (first == null) {
      first = InMemoryJournal.create(vertx);
      return first;
    }
    return InMemoryJournal.sharing(vertx, first);
  }
}
