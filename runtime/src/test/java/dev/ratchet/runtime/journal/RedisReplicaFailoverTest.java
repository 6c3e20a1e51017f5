package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.Turn;
import dev.ratchet.host.ChildEnvironment;
import dev.ratchet.embedded.RedisServerProcess;
import dev.ratchet.runtime.testing.RedisCli;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.ratchet.runtime.journal.FailoverTurns.AGENT;
import static dev.ratchet.runtime.journal.FailoverTurns.submitted;
import static dev.ratchet.runtime.journal.FailoverTurns.turnOf;
import static dev.ratchet.runtime.testing.Await.await;
import static dev.ratchet.runtime.testing.Await.failure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code journal.waitReplicas} on a real master and replica: a step is acknowledged only once the
 * replica holds it, so that after the master is killed and the replica promoted, every
 * acknowledged step is there; a step the replica does not take in time fails, never silently.
 */
class RedisReplicaFailoverTest {

  private static final int SESSIONS = 60;
  private static final int STEPS = 4;

  private Vertx vertx;
  private RedisServerProcess master;
  private RedisServerProcess replica;
  private final String prefix = "rf-" + UUID.randomUUID().toString().substring(0, 8);

  @BeforeEach
  void startMasterAndReplica() throws IOException {
    assumeTrue(ChildEnvironment.onPath("redis-cli") != null, "the replica is set up with redis-cli, which is not on PATH");
    vertx = Vertx.vertx();
    master = RedisServerProcess.startTemporary("ratchet-test-master", "everysec");
    replica = RedisServerProcess.startTemporary("ratchet-test-replica", "everysec");
    RedisCli.replicate(master.port(), replica.port());
  }

  @AfterEach
  void stop() {
    if (vertx != null) {
      await(vertx.close());
    }
    if (master != null) {
      master.close();
    }
    if (replica != null) {
      replica.close();
    }
  }

  private RedisJournal journal(String url, int waitReplicas, long timeoutMillis) {
    JournalOptions options = JournalOptions.of(url).withKeyPrefix(prefix);
    return await(RedisJournal.open(vertx, waitReplicas > 0 ? options.withWaitReplicas(waitReplicas, timeoutMillis)
        : options));
  }

  @Test
  void everyStepAcknowledgedBeforeTheMasterWasKilledIsOnThePromotedReplica() throws Exception {
    RedisJournal journal = journal(master.url(), 1, 2_000);
    // the steps each session got acknowledged: 1 claimed, 2 turn submitted, 3 call started, 4 call completed
    Map<String, Integer> acknowledged = new ConcurrentHashMap<>();
    AtomicInteger acks = new AtomicInteger();
    vertx.runOnContext(v -> {
      for (int i = 0; i < SESSIONS; i++) {
        String session = "s-" + i;
        steps(journal, session, acknowledged, acks);
      }
    });
    long deadline = System.currentTimeMillis() + 20_000;
    while (acks.get() < SESSIONS * STEPS / 2 && System.currentTimeMillis() < deadline) {
      Thread.sleep(1);
    }
    master.kill();
    int ackedAtKill = acks.get();
    assertThat(ackedAtKill).as("steps acknowledged before the kill").isGreaterThan(0);
    RedisCli.at(replica.port(), "replicaof", "no", "one");
    RedisCli.await(replica.port(), 10_000, info -> info.contains("role:master"), "info", "replication");

    Thread.sleep(200);
    // steps acknowledged after the kill count too: none may be, and every one must be on the new master
    Map<String, Integer> acked = Map.copyOf(acknowledged);
    RedisJournal promoted = journal(replica.url(), 0, 0);
    try {
      for (Map.Entry<String, Integer> e : acked.entrySet()) {
        String session = e.getKey();
        int step = e.getValue();
        Turn turn = turnOf(session);
        CallId call = turn.callId(session, 0);
        assertThat(await(promoted.queries().currentEpoch(session))).as(session + " claimed").isEqualTo(1);
        if (step >= 2) {
          assertThat(await(promoted.queries().sessionInfo(session)).getString("agent")).as(session + " turn").isEqualTo(AGENT);
        }
        CallState state = await(promoted.callState(session, call));
        if (step >= 3) {
          assertThat(state.state().wireName()).as(session + " call started").isIn("started", "done");
        }
        if (step >= 4) {
          assertThat(state.isDone()).as(session + " call completed").isTrue();
          assertThat(state.record().outcome()).isEqualTo(Outcome.SUCCEEDED);
        }
      }
    } finally {
      promoted.close();
      journal.close();
    }
    assertThat(acked).as("sessions with an acknowledged step").isNotEmpty();
  }

  @Test
  void aReplicaThatFellBehindHoldsEveryAcknowledgedStepWhenItTakesOver() throws Exception {
    // the replica writes what it takes to its AOF before it acknowledges it; its first rewrite is done
    RedisCli.at(replica.port(), "config", "set", "appendfsync", "always");
    RedisCli.await(replica.port(), 10_000, info -> info.contains("aof_rewrite_in_progress:0")
        && info.contains("aof_rewrite_scheduled:0") && info.contains("aof_last_bgrewrite_status:ok"), "info", "persistence");
    RedisJournal journal = journal(master.url(), 1, 2_000);
    List<String> acknowledged = submitted(journal, "before-", 10);
    stopReplica("-STOP");
    // the replica takes nothing now: steps reach the master alone
    List<Future<Long>> behind = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      behind.add(journal.claim("behind-" + i, "node-1").map(ClaimedSession::epoch));
    }
    await(Future.join(behind).otherwiseEmpty());
    for (Future<Long> step : behind) {
      assertThat(step.failed()).as("a step the replica did not take is not acknowledged").isTrue();
      assertThat(((RatchetException) step.cause()).code()).isEqualTo("JOURNAL_NOT_REPLICATED");
    }
    master.kill();
    // the replica dies too, with whatever it had not taken; it comes back from its AOF as the new master
    replica.kill();
    RedisServerProcess promoted = RedisServerProcess.start(0, replica.dataDir(), "everysec");
    try {
      RedisJournal onPromoted = journal(promoted.url(), 0, 0);
      for (String session : acknowledged) {
        assertThat(await(onPromoted.queries().currentEpoch(session))).as(session).isEqualTo(1);
        assertThat(await(onPromoted.inflightTurns(session))).as(session).hasSize(1);
      }
      onPromoted.close();
    } finally {
      promoted.kill();
      journal.close();
    }
  }

  @Test
  void aStepTheReplicaDoesNotTakeInTimeFailsWithJournalNotReplicated() throws Exception {
    RedisJournal journal = journal(master.url(), 1, 1_000);
    long epoch = await(journal.claim("s-1", "node-1").map(ClaimedSession::epoch));
    whileReplicaStopped(() -> {
      long started = System.currentTimeMillis();
      Throwable err = failure(journal.submitTurn(TurnSubmission.of("s-1", epoch, AGENT, turnOf("s-1"))));
      assertThat(err).isInstanceOf(RatchetException.class);
      assertThat(((RatchetException) err).code()).isEqualTo("JOURNAL_NOT_REPLICATED");
      assertThat(err.getMessage()).contains("0 of the 1 replica(s)").contains("1000 ms");
      assertThat(System.currentTimeMillis() - started).isGreaterThanOrEqualTo(990);
    });
    // the replica back, steps are acknowledged again
    await(journal.appendEvent("s-1", epoch, "call.attempt_failed", "t1", null, new JsonObject()));
    journal.close();
  }

  @Test
  void withoutWaitReplicasAStepIsAcknowledgedByTheMasterAlone() throws Exception {
    RedisJournal journal = journal(master.url(), 0, 0);
    long epoch = await(journal.claim("s-1", "node-1").map(ClaimedSession::epoch));
    whileReplicaStopped(() -> assertThat(await(journal.submitTurn(TurnSubmission.of("s-1", epoch, AGENT,
        turnOf("s-1")))).status()).isEqualTo(SubmitAnswer.Status.NEW));
    journal.close();
  }

  /** Runs {@code steps} while the replica is frozen, and thaws it after, whatever they did. */
  private void whileReplicaStopped(Runnable steps) throws IOException, InterruptedException {
    stopReplica("-STOP");
    try {
      steps.run();
    } finally {
      stopReplica("-CONT");
    }
  }

  /** Freezes or thaws the replica process, as a replica that stopped taking the stream would. */
  private void stopReplica(String signal) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", signal, String.valueOf(replica.pid())).start();
    assertThat(kill.waitFor()).isZero();
  }

  /** One session's steps in order, each started once the one before was acknowledged. */
  private void steps(RedisJournal journal, String session, Map<String, Integer> acknowledged, AtomicInteger acks) {
    Turn turn = turnOf(session);
    CallId call = turn.callId(session, 0);
    journal.claim(session, "node-1").map(ClaimedSession::epoch).compose(epoch -> {
      ack(session, 1, acknowledged, acks);
      return journal.submitTurn(TurnSubmission.of(session, epoch, AGENT, turn))
          .compose(s -> {
            ack(session, 2, acknowledged, acks);
            return journal.callStarted(session, epoch, turn.turnId(), new CallStart(call, 1, new JsonObject()));
          })
          .compose(s -> {
            ack(session, 3, acknowledged, acks);
            return JournalFixture.completed(journal, session, epoch, turn.turnId(), new CallResult(0, call,
                "write", null,
                EffectClass.NON_IDEMPOTENT_WRITE, Outcome.SUCCEEDED, "ok", null, 1, false, false, null, 5, null));
          })
          .onSuccess(r -> ack(session, 4, acknowledged, acks));
    });
  }

  private static void ack(String session, int step, Map<String, Integer> acknowledged, AtomicInteger acks) {
    acknowledged.put(session, step);
    acks.incrementAndGet();
  }
}
