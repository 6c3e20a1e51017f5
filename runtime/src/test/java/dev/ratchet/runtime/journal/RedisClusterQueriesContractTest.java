package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.testing.TestRedisCluster;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.ratchet.runtime.testing.Await.await;

/** The TCK of the journal's read side on a real Redis Cluster of three masters: indexes and reads across nodes. */
class RedisClusterQueriesContractTest extends JournalQueriesContract {

  @RegisterExtension
  static final TestRedisCluster CLUSTER = new TestRedisCluster(3);

  @Override
  protected SessionJournal open(Vertx vertx) {
    return await(RedisJournal.open(vertx, CLUSTER.journalOptions()));
  }
}
