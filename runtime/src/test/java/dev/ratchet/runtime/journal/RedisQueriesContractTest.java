package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.ratchet.runtime.testing.Await.await;

/** The TCK of the journal's read side against real Redis. */
class RedisQueriesContractTest extends JournalQueriesContract {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  @Override
  protected SessionJournal open(Vertx vertx) {
    return await(RedisJournal.open(vertx, JournalOptions.of(REDIS.url()).withKeyPrefix(REDIS.keyPrefix())));
  }
}
