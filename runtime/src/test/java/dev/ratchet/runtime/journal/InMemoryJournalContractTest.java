package dev.ratchet.runtime.journal;

import io.vertx.core.Vertx;

/** The journal TCK against the in-memory journal. */
class InMemoryJournalContractTest extends SessionJournalContract {

  @Override
  protected SessionJournal open(Vertx vertx) {
    return InMemoryJournal.create(vertx);
  }

  @Override
  protected boolean persistsAcrossInstances() {
    return false;
  }
}
