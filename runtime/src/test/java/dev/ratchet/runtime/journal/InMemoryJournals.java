package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.testing.JournalStore;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * In-memory journals for the TCKs: a test's first journal over new memory, each later one over the
 * same memory, as a node restarted on the same Redis.
 */
final class InMemoryJournals implements JournalStore, ParameterResolver {

  private InMemoryJournal first;

  @Override
  public SessionJournal open(Vertx vertx) {
    if (first == null) {
      first = InMemoryJournal.create(vertx);
      return first;
    }
    return InMemoryJournal.sharing(vertx, first);
  }

  @Override
  public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
    return p.getParameter().getType() == JournalStore.class;
  }

  @Override
  public Object resolveParameter(ParameterContext p, ExtensionContext e) {
    return this;
  }
}
