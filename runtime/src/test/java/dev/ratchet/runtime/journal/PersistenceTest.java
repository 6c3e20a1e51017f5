package dev.ratchet.runtime.journal;

import dev.ratchet.embedded.RedisServerProcess;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/** What the journal finds out about its Redis, on a server of the test's own. */
class PersistenceTest {

  @Test
  void aRedisThatMayEvictAnyKeyWhenFullIsReportedAsPuttingTheJournalAtRisk(@TempDir Path dir) throws Exception {
    try (RedisServerProcess redis = RedisServerProcess.start(0, dir, "everysec")) {
      Vertx vertx = Vertx.vertx();
      try {
        RedisJournal journal = await(RedisJournal.open(vertx, JournalOptions.of(redis.url())));
        Persistence safe = await(journal.diagnostics().persistence());
        assertThat(safe.aofEnabled()).isTrue();
        assertThat(safe.mayEvictJournal()).isFalse();
        assertThat(safe.atRisk()).isFalse();
        assertThat(safe.describe()).doesNotContain("EVICT");

        // keys without a TTL are never evicted by a volatile-* policy
        config(journal, "maxmemory", "1gb");
        config(journal, "maxmemory-policy", "volatile-lru");
        assertThat(await(journal.diagnostics().persistence()).atRisk()).isFalse();

        config(journal, "maxmemory-policy", "allkeys-lru");
        Persistence risky = await(journal.diagnostics().persistence());
        assertThat(risky.maxmemory()).isEqualTo(1L << 30);
        assertThat(risky.mayEvictJournal()).isTrue();
        assertThat(risky.atRisk()).isTrue();
        assertThat(risky.describe()).contains("allkeys-lru").contains("maxmemory-policy noeviction");
        await(journal.close());
      } finally {
        await(vertx.close());
      }
    }
  }

  private static void config(RedisJournal journal, String name, String value) {
    await(journal.send(Request.cmd(Command.CONFIG).arg("SET").arg(name).arg(value)));
  }
}
