package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.testing.TestRedisCluster;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.ratchet.runtime.testing.Await.await;

/** The retention TCK on a real Redis Cluster of three masters: removals, erasures and the sweeper's index across nodes. */
class RedisClusterRetentionContractTest extends RetentionContract {

  @RegisterExtension
  static final TestRedisCluster CLUSTER = new TestRedisCluster(3);

  @Override
  protected SessionJournal open(Vertx vertx) {
    return await(RedisJournal.open(vertx, CLUSTER.journalOptions()));
  }
}
