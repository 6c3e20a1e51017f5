package dev.ratchet.runtime.journal;

import org.junit.jupiter.api.extension.RegisterExtension;

/** The journal TCK against the in-memory journal. */
class InMemoryJournalContractTest extends SessionJournalContract {

  @RegisterExtension
  final InMemoryJournals journals = new InMemoryJournals();
}
