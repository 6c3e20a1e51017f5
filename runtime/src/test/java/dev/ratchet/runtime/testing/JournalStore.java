package dev.ratchet.runtime.testing;

import dev.ratchet.runtime.journal.SessionJournal;
import io.vertx.core.Vertx;

/**
 * The store a journal TCK runs against, handed to the TCK's set-up by the test class's extension:
 * each journal it opens is a client of the same store, as a node restarted on the same Redis is.
 */
public interface JournalStore {

  SessionJournal open(Vertx vertx);
}
