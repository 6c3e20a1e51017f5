package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.testing.RedisCli;
import dev.ratchet.runtime.testing.TestRedisCluster;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Redis Cluster of three masters with a replica each, every step waiting for its replica
 * ({@code journal.waitReplicas: 1}): when a master is killed and the cluster promotes its replica,
 * the journal follows the new master and every step acknowledged before is there; a step on the
 * promoted replica, left without a replica, is refused as not replicated.
 */
class RedisClusterFailoverTest {

  @RegisterExtension
  static final TestRedisCluster CLUSTER = new TestRedisCluster(3, 1);

  private static final String AGENT = "test-agent";

  private Vertx vertx;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void stop() {
    await(vertx.close());
  }

  @Test
  void afterAMasterIsKilledAndItsReplicaPromotedEveryAcknowledgedStepIsOnTheNewMaster() throws Exception {
    // every node a seed: the client finds the cluster whichever node is down
    JournalOptions options = CLUSTER.journalOptions().withTopology(RedisTopology.cluster(CLUSTER.endpoints()))
        .withWaitReplicas(1, 2_000);
    RedisJournal journal = await(RedisJournal.open(vertx, options));
    assertThat(await(journal.diagnostics().fewestReplicas())).as("replicas of the fewest-replicated master").isEqualTo(1);
    // new steps after the kill wait less: on the promoted replica, left without a replica, each waits in vain
    RedisJournal after = await(RedisJournal.open(vertx, options.withWaitReplicas(1, 300)));
    List<String> sessions = new ArrayList<>();
    List<Future<SubmitAnswer>> submitted = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      String session = "s-" + i;
      sessions.add(session);
      long epoch = await(journal.claim(session, "node-1").map(ClaimedSession::epoch));
      submitted.add(journal.submitTurn(TurnSubmission.of(session, epoch, AGENT, turnOf(session))
          .withCaller("caller-1")));
    }
    await(Future.all(submitted));

    int victim = CLUSTER.masterPorts().get(0);
    CLUSTER.kill(victim);
    long promotedBy = System.currentTimeMillis() + 20_000;
    while (CLUSTER.masterPorts().size() < 3 && System.currentTimeMillis() < promotedBy) {
      Thread.sleep(100);
    }
    assertThat(CLUSTER.masterPorts()).as("masters after the failover").hasSize(3).doesNotContain(victim);
    for (int port : CLUSTER.masterPorts()) {
      RedisCli.await(port, 20_000, info -> info.contains("cluster_state:ok"), "cluster", "info");
    }

    // once the client found the new master, every acknowledged step is read back through it; a new
    // step on the promoted replica, which has no replica of its own now, reaches it and says so
    long deadline = System.currentTimeMillis() + 20_000;
    Map<String, String> outcomes = new HashMap<>();
    while (outcomes.size() < sessions.size()) {
      Map<String, Future<Long>> claims = new HashMap<>();
      for (String session : sessions) {
        if (!outcomes.containsKey(session)) {
          claims.put(session, journal.inflightTurns(session).compose(turns -> {
            assertThat(turns).as(session).extracting(t -> t.turn().turnId()).containsExactly("t1");
            return after.claim(session, "node-2").map(ClaimedSession::epoch);
          }));
        }
      }
      await(Future.join(new ArrayList<>(claims.values())).otherwiseEmpty(), 10);
      claims.forEach((session, claim) -> {
        if (claim.succeeded()) {
          outcomes.put(session, "replicated");
        } else if (claim.cause() instanceof RatchetException e && "JOURNAL_NOT_REPLICATED".equals(e.code())) {
          outcomes.put(session, e.code());
        } else {
          assertThat(System.currentTimeMillis()).as(session + " after the failover: " + claim.cause().getMessage())
              .isLessThan(deadline);
        }
      });
      if (outcomes.size() < sessions.size()) {
        Thread.sleep(200);
      }
    }
    for (String session : sessions) {
      assertThat(await(journal.queries().currentEpoch(session))).as(session + ": claimed before the kill and after")
          .isGreaterThanOrEqualTo(2);
    }
    long notReplicated = outcomes.values().stream().filter("JOURNAL_NOT_REPLICATED"::equals).count();
    assertThat(notReplicated).as("sessions on the promoted replica").isPositive().isLessThan(sessions.size());
    assertThat(await(journal.queries().activeSessions())).containsAll(sessions);
    after.close();
    journal.close();
  }

  private static Turn turnOf(String session) {
    return new Turn("t1", List.of(new ToolCall("write", new JsonObject().put("session", session))));
  }
}
