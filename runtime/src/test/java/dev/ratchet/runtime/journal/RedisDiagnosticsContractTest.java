package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.testing.TestRedis;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The TCK of the journal's health against real Redis. */
class RedisDiagnosticsContractTest extends JournalDiagnosticsContract {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();
}
