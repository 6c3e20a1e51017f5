package dev.ratchet.runtime.journal;

import io.vertx.core.Vertx;

/** The retention TCK against the in-memory journal. */
class InMemoryRetentionContractTest extends RetentionContract {

  @Override
  protected SessionJournal open(Vertx vertx) {
    return InMemoryJournal.create(vertx);
  }
}
