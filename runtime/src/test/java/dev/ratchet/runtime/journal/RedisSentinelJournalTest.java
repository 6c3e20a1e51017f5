package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.RatchetException;
import dev.ratchet.host.ChildEnvironment;
import dev.ratchet.host.FreePorts;
import dev.ratchet.embedded.RedisServerProcess;
import dev.ratchet.runtime.testing.RedisCli;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static dev.ratchet.runtime.journal.FailoverTurns.submitted;
import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The journal on a master that a real Redis Sentinel watches, reached through the sentinel alone:
 * when the master is killed, the sentinel promotes its replica and the journal follows it, with
 * every step acknowledged before the kill (each waited for the replica).
 */
class RedisSentinelJournalTest {

  private static final String MASTER_NAME = "journal";

  private Vertx vertx;
  private RedisServerProcess master;
  private RedisServerProcess replica;
  private Process sentinel;
  private int sentinelPort;
  private Path sentinelDir;
  private final String prefix = "rs-" + UUID.randomUUID().toString().substring(0, 8);

  @BeforeEach
  void startMasterReplicaAndSentinel() throws IOException {
    assumeTrue(ChildEnvironment.onPath("redis-cli") != null && ChildEnvironment.onPath("redis-server") != null,
        "a sentinel needs redis-server and redis-cli on PATH");
    vertx = Vertx.vertx();
    master = RedisServerProcess.startTemporary("ratchet-test-master", "everysec");
    replica = RedisServerProcess.startTemporary("ratchet-test-replica", "everysec");
    RedisCli.replicate(master.port(), replica.port());
    sentinelDir = Files.createTempDirectory("ratchet-test-sentinel");
    sentinelPort = FreePorts.next();
    Path conf = sentinelDir.resolve("sentinel.conf");
    Files.writeString(conf, String.join("\n",
        "port " + sentinelPort, "bind 127.0.0.1", "dir " + sentinelDir,
        "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + master.port() + " 1",
        "sentinel down-after-milliseconds " + MASTER_NAME + " 1000",
        "sentinel failover-timeout " + MASTER_NAME + " 10000", ""));
    sentinel = RedisCli.server(sentinelDir.resolve("sentinel.log").toFile(), conf.toString(), "--sentinel");
    RedisCli.await(sentinelPort, 10_000, r -> r.contains(String.valueOf(replica.port())),
        "sentinel", "replicas", MASTER_NAME);
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (vertx != null) {
      await(vertx.close());
    }
    if (sentinel != null) {
      sentinel.destroy();
      if (!sentinel.waitFor(5, TimeUnit.SECONDS)) {
        sentinel.destroyForcibly();
      }
    }
    RedisServerProcess.deleteDataDir(sentinelDir);
    if (master != null) {
      master.close();
    }
    if (replica != null) {
      replica.close();
    }
  }

  @Test
  void afterTheSentinelPromotesTheReplicaTheJournalReachesItWithEveryAcknowledgedStep() throws Exception {
    JournalOptions options = new JournalOptions(null, prefix, 16, 100_000,
        RedisTopology.sentinel(List.of("redis://127.0.0.1:" + sentinelPort), MASTER_NAME), 1, 2_000);
    RedisJournal journal = await(RedisJournal.open(vertx, options));
    assertThat(journal.describe()).contains("master '" + MASTER_NAME + "'").contains(String.valueOf(sentinelPort));
    List<String> acknowledged = submitted(journal, "s-", 20);

    master.kill();
    String promoted = RedisCli.await(sentinelPort, 20_000, r -> r.contains(String.valueOf(replica.port())),
        "sentinel", "get-master-addr-by-name", MASTER_NAME);
    assertThat(promoted).contains(String.valueOf(replica.port()));

    // the journal asks the sentinel again once its connections to the dead master failed
    long deadline = System.currentTimeMillis() + 15_000;
    Long epoch = null;
    while (epoch == null && System.currentTimeMillis() < deadline) {
      Future<Long> read = journal.queries().currentEpoch(acknowledged.get(0));
      try {
        epoch = await(read, 5);
      } catch (RuntimeException e) {
        Thread.sleep(200);
      }
    }
    assertThat(epoch).as("the first session's epoch, read on the promoted replica").isEqualTo(1L);
    for (String session : acknowledged) {
      assertThat(await(journal.inflightTurns(session))).as(session).extracting(t -> t.turn().turnId())
          .containsExactly("t1");
    }
    // the new master has no replica left: a step cannot be held by one, and says so
    Throwable err = dev.ratchet.runtime.testing.Await.failure(
        journal.appendEvent("s-0", 1, "call.attempt_failed", "t1", null, new JsonObject()));
    assertThat(((RatchetException) err).code()).isEqualTo("JOURNAL_NOT_REPLICATED");
    journal.close();
  }
}
