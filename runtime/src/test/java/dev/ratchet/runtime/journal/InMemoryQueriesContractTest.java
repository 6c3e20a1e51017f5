package dev.ratchet.runtime.journal;

import org.junit.jupiter.api.extension.RegisterExtension;

/** The TCK of the journal's read side against the in-memory journal. */
class InMemoryQueriesContractTest extends JournalQueriesContract {

  @RegisterExtension
  final InMemoryJournals journals = new InMemoryJournals();
}
