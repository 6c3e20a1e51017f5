package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.testing.TestRedis;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The TCK of the journal's read side against real Redis. */
class RedisQueriesContractTest extends JournalQueriesContract {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();
}
