package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.testing.RedisCli;
import dev.ratchet.runtime.testing.TestRedisCluster;
import io.vertx.core.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The journal TCK on a real Redis Cluster of three masters, reached through Vert.x's cluster
 * client from one seed node; and what a cluster adds: scripts on every master, pipelines that
 * span nodes.
 */
class RedisClusterJournalContractTest extends SessionJournalContract {

  @RegisterExtension
  static final TestRedisCluster CLUSTER = new TestRedisCluster(3);

  @Test
  void theJournalsScriptsAreLoadedOnEveryMaster() throws Exception {
    for (int port : CLUSTER.ports()) {
      String memory = RedisCli.at(port, "info", "memory");
      long scripts = memory.lines().filter(l -> l.startsWith("number_of_cached_scripts:"))
          .mapToLong(l -> Long.parseLong(l.substring(l.indexOf(':') + 1).trim())).findFirst().orElse(0);
      assertThat(scripts).as("scripts cached on the master at port " + port)
          .isGreaterThanOrEqualTo(LuaScripts.Script.values().length);
    }
  }

  @Test
  void mastersThatLostTheirScriptsAreSentTheScriptsBodies() throws Exception {
    RedisJournal opened = await(RedisJournal.open(vertx, CLUSTER.journalOptions()));
    try {
      for (int port : CLUSTER.ports()) {
        RedisCli.at(port, "script", "flush");
      }
      for (int i = 0; i < 10; i++) {
        String id = sessionId + "-" + i;
        long epoch = await(opened.claim(id, "node-1").map(ClaimedSession::epoch));
        assertThat(await(opened.submitTurn(TurnSubmission.of(id, epoch, AGENT, turn("t1", "a")).withCaller("caller-1")))
            .status()).isEqualTo(SubmitAnswer.Status.NEW);
      }
    } finally {
      opened.close();
    }
  }

  @Test
  void sessionsOnEveryMasterAreWrittenIndexedAndReadBackInOnePass() throws Exception {
    List<String> ids = new ArrayList<>();
    Set<Integer> slots = new HashSet<>();
    for (int i = 0; i < 30; i++) {
      String id = sessionId + "-" + i;
      ids.add(id);
      slots.add(slotOwner(id));
    }
    assertThat(slots).as("the sessions' masters").hasSize(3);
    List<Future<SubmitAnswer>> submitted = new ArrayList<>();
    for (String id : ids) {
      long epoch = await(journal.claim(id, "node-1").map(ClaimedSession::epoch));
      // a new session's turn writes the global indexes (on their own masters) before the turn
      submitted.add(journal.submitTurn(TurnSubmission.of(id, epoch, AGENT, turn("t1", "a")).withCaller("caller-1")));
    }
    await(Future.all(submitted));

    Map<String, String> agents = await(queries.sessionAgents(ids));
    assertThat(agents).hasSize(ids.size()).containsValue(AGENT);
    assertThat(await(queries.activeSessions())).containsAll(ids);
    assertThat(await(queries.recentSessions(0, 10_000))).containsAll(ids);
  }

  @Test
  void withWaitReplicasAStepOnAMasterWithoutReplicasFailsWithJournalNotReplicated() {
    RedisJournal waiting = await(RedisJournal.open(vertx, CLUSTER.journalOptions().withWaitReplicas(1, 100)));
    try {
      long epoch = await(journal.claim(sessionId, "node-1").map(ClaimedSession::epoch));
      Throwable err = dev.ratchet.runtime.testing.Await.failure(
          waiting.submitTurn(TurnSubmission.of(sessionId, epoch, AGENT, turn("t1", "a")).withCaller("caller-1")));
      assertThat(((dev.ratchet.runtime.RatchetException) err).code()).isEqualTo("JOURNAL_NOT_REPLICATED");
      assertThat(waiting.replication()).contains("waits until 1 replica(s) hold it");
      assertThat(await(waiting.diagnostics().fewestReplicas())).as("replicas of the fewest-replicated master").isZero();
    } finally {
      waiting.close();
    }
  }

  /** The port of the master that holds the session's slot. */
  private static int slotOwner(String sessionId) throws Exception {
    long slot = Long.parseLong(RedisCli.at(CLUSTER.ports().get(0), "cluster", "keyslot", "{" + sessionId + "}").strip());
    for (int port : CLUSTER.ports()) {
      String myself = RedisCli.at(port, "cluster", "nodes").lines().filter(l -> l.contains("myself")).findFirst()
          .orElseThrow();
      String[] fields = myself.split(" ");
      // fields 8 and on are the node's slot ranges, "0-5460" or a single slot
      for (int i = 8; i < fields.length; i++) {
        String[] range = fields[i].strip().split("-");
        if (range[0].matches("\\d+")) {
          long start = Long.parseLong(range[0]);
          long end = range.length > 1 ? Long.parseLong(range[1]) : start;
          if (slot >= start && slot <= end) {
            return port;
          }
        }
      }
    }
    throw new IllegalStateException("no master serves slot " + slot);
  }
}
