package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.testing.JournalStore;
import io.vertx.core.Vertx;

/**
 * In-memory journals for the TCKs: a test's first journal over new memory, each later one over the
 * same memory, as a node restarted on the same Redis.
 */
final class InMemoryJournals implements JournalStore {

  private InMemoryJournal first;

  @Override
  public SessionJournal open(Vertx vertx) {
    if (first == null) {
      first = InMemoryJournal.create(vertx);
      return first;
    }
    return InMemoryJournal.sharing(vertx, first);
  }
}
