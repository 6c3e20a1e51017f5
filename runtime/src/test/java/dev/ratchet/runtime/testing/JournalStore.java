package dev.ratchet.runtime.testing;

import dev.ratchet.runtime.journal.SessionJournal;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The store a journal TCK runs against, handed to the TCK's set-up by the test class's extension:
 * each journal it opens is a client of the same store, as a node restarted on the same Redis is.
 * The extension resolves itself, as a {@code JournalStore} or as its own type, for a test's parameters.
 */
public interface JournalStore extends ParameterResolver {

  SessionJournal open(Vertx vertx);

  @Override
  default boolean supportsParameter(ParameterContext p, ExtensionContext e) {
    Class<?> type = p.getParameter().getType();
    return type == getClass() || type == JournalStore.class;
  }

  @Override
  default Object resolveParameter(ParameterContext p, ExtensionContext e) {
    return this;
  }
}
