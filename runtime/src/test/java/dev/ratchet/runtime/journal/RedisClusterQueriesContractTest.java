package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.testing.TestRedisCluster;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The TCK of the journal's read side on a real Redis Cluster of three masters: indexes and reads across nodes. */
class RedisClusterQueriesContractTest extends JournalQueriesContract {

  @RegisterExtension
  static final TestRedisCluster CLUSTER = new TestRedisCluster(3);
}
