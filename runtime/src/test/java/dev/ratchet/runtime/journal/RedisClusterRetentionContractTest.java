package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.testing.TestRedisCluster;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The retention TCK on a real Redis Cluster of three masters: removals, erasures and the sweeper's index across nodes. */
class RedisClusterRetentionContractTest extends RetentionContract {

  @RegisterExtension
  static final TestRedisCluster CLUSTER = new TestRedisCluster(3);
}
