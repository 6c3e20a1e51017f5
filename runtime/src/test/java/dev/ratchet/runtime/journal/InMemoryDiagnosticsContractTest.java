package dev.ratchet.runtime.journal;

import org.junit.jupiter.api.extension.RegisterExtension;

/** The TCK of the journal's health against the in-memory journal. */
class InMemoryDiagnosticsContractTest extends JournalDiagnosticsContract {

  @RegisterExtension
  final InMemoryJournals journals = new InMemoryJournals();
}
