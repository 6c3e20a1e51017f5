package dev.ratchet.runtime.journal;

import org.junit.jupiter.api.extension.RegisterExtension;

/** The retention TCK against the in-memory journal. */
class InMemoryRetentionContractTest extends RetentionContract {

  @RegisterExtension
  final InMemoryJournals journals = new InMemoryJournals();
}
