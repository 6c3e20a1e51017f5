package dev.ratchet.verticles.faults;

import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.TurnRequest;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.host.FreePorts;
import dev.ratchet.runtime.journal.JournalOptions;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.embedded.RedisServerProcess;
import dev.ratchet.runtime.testing.Await;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redis faults under load, with a real redis-server process: killed and restarted with AOF
 * appendfsync always, unreachable for a while, or running without persistence.
 * {@code -Dratchet.outage.seconds=30} gives the documented 30-second outage.
 */
class RedisFaultsTest {

  private final Vertx vertx = Vertx.vertx();
  private final List<AutoCloseable> cleanup = new ArrayList<>();
  private Path dir;
  private int port;

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : cleanup) {
      try {
        c.close();
      } catch (Exception e) {
        // best effort
      }
    }
    await(vertx.close());
    // the data outlives each server: the test restarts Redis on it
    RedisServerProcess.deleteDataDir(dir);
  }

  private RedisServerProcess redis(String appendfsync) throws Exception {
    if (dir == null) {
      dir = Files.createTempDirectory("ratchet-faults");
      port = FreePorts.next();
    }
    RedisServerProcess server = RedisServerProcess.start(port, dir, appendfsync);
    cleanup.add(server);
    return server;
  }

  private RatchetNode ratchet(String url, FaultWorkload workload) {
    RatchetNode ratchet = await(RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl(url).keyPrefix("faults")));
    cleanup.add(() -> await(ratchet.close()));
    await(ratchet.register(workload.agent(vertx)));
    return ratchet;
  }

  /** Submits turns round-robin over a few sessions, one every {@code everyMillis}, until told to stop. */
  private static final class Load extends Thread {
    private final RatchetNode ratchet;
    private final FaultWorkload workload;
    private final long everyMillis;
    volatile boolean running = true;
    int submitted;

    Load(RatchetNode ratchet, FaultWorkload workload, long everyMillis) {
      this.ratchet = ratchet;
      this.workload = workload;
      this.everyMillis = everyMillis;
      setDaemon(true);
    }

    @Override
    public void run() {
      while (running) {
        workload.submit(ratchet, "s" + (submitted % 5), "t" + submitted);
        submitted++;
        try {
          Thread.sleep(everyMillis);
        } catch (InterruptedException e) {
          return;
        }
      }
    }

    void finish() throws InterruptedException {
      running = false;
      join(5_000);
    }
  }

  /** Every acknowledged turn completes with one outcome per call, and no write took effect twice. */
  private void assertAllCompleteOnce(RatchetNode ratchet, FaultWorkload workload, int seconds) {
    // a caller submits a refused turn again (the same turn id runs at most once)
    long deadline = System.currentTimeMillis() + seconds * 1000L;
    while (!(workload.refused.isEmpty()
        && workload.acknowledged.values().stream().allMatch(Future::isComplete))) {
      assertThat(System.currentTimeMillis()).as("every turn completes in time; refused: "
          + workload.refused.size() + ", open: " + workload.acknowledged.entrySet().stream()
          .filter(e -> !e.getValue().isComplete()).map(Map.Entry::getKey).toList()).isLessThan(deadline);
      for (String id : new ArrayList<>(workload.refused.keySet())) {
        String[] p = id.split("/");
        workload.submit(ratchet, p[0], p[1]);
      }
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    }
    for (Map.Entry<String, Future<TurnResult>> e : workload.acknowledged.entrySet()) {
      assertThat(e.getValue().succeeded()).as(e.getKey() + " " + e.getValue().cause()).isTrue();
      TurnResult r = e.getValue().result();
      assertThat(r.calls()).extracting(CallResult::outcome).as(e.getKey())
          .containsExactly(Outcome.SUCCEEDED, Outcome.SUCCEEDED, Outcome.SUCCEEDED);
      String[] p = e.getKey().split("/");
      assertThat(await(ratchet.journal().turnResult(p[0], p[1]))).isEqualTo(r);
    }
    assertThat(workload.duplicates()).as("non-idempotent writes that took effect twice").isZero();
    assertThat(workload.charges).hasSize(workload.acknowledged.size());
    assertThat(workload.upserts.values()).allMatch(n -> n.get() == 1);
  }

  @Test
  void aRedisKilledAndRestartedWithAofAlwaysLosesNoAcknowledgedStep() throws Exception {
    RedisServerProcess server = redis("always");
    FaultWorkload workload = new FaultWorkload();
    RatchetNode ratchet = ratchet(server.url(), workload);
    Load load = new Load(ratchet, workload, 10);
    load.start();
    Await.until(() -> workload.acknowledged.values().stream().filter(Future::succeeded).count() >= 40, 30);
    // what the runtime was told is durable at the moment of the crash
    Map<String, TurnResult> completedBeforeCrash = new java.util.HashMap<>();
    workload.acknowledged.forEach((id, f) -> {
      if (f.succeeded()) {
        completedBeforeCrash.put(id, f.result());
      }
    });
    List<String> acknowledgedBeforeCrash = new ArrayList<>(workload.acknowledged.keySet());
    server.kill();
    RedisServerProcess again = redis("always");
    Thread.sleep(300);
    load.finish();

    RedisJournal fresh = await(RedisJournal.open(vertx, JournalOptions.of(again.url()).withKeyPrefix("faults")));
    cleanup.add(fresh::close);
    for (Map.Entry<String, TurnResult> e : completedBeforeCrash.entrySet()) {
      String[] p = e.getKey().split("/");
      assertThat(await(fresh.turnResult(p[0], p[1]))).as("results of " + e.getKey()).isEqualTo(e.getValue());
    }
    for (String id : acknowledgedBeforeCrash) {
      String[] p = id.split("/");
      // an acknowledged turn is either completed or still in flight: never forgotten
      // (in flight first: the running runtime may complete it between the two reads)
      boolean known = await(fresh.inflightTurns(p[0])).stream().anyMatch(t -> t.turn().turnId().equals(p[1]))
          || await(fresh.turnResult(p[0], p[1])) != null;
      assertThat(known).as(id + " is in the journal after the restart").isTrue();
    }
    assertAllCompleteOnce(ratchet, workload, 60);
    // and the same runtime keeps working on the restarted server
    assertThat(await(ratchet.submit("faults", "after", FaultWorkload.turn("t-after"))).calls())
        .extracting(CallResult::outcome).containsOnly(Outcome.SUCCEEDED);
  }

  @Test
  void aRedisUnreachableForSecondsMidLoadFailsHealthAndNewTurnsThenEverythingResumes() throws Exception {
    int outage = Integer.getInteger("ratchet.outage.seconds", 4);
    RedisServerProcess server = redis("always");
    FaultWorkload workload = new FaultWorkload();
    RatchetNode ratchet = ratchet(server.url(), workload);
    Load load = new Load(ratchet, workload, 20);
    load.start();
    Await.until(() -> workload.acknowledged.size() >= 20, 30);
    await(ratchet.diagnostics().ping());

    server.kill();
    long down = System.currentTimeMillis();
    // health: the journal's ping fails, and promptly
    long pingStarted = System.currentTimeMillis();
    Throwable pingFailure = Await.failure(ratchet.diagnostics().ping());
    assertThat(pingFailure).isInstanceOf(RatchetException.class);
    assertThat(((RatchetException) pingFailure).code()).isEqualTo("JOURNAL_UNAVAILABLE");
    assertThat(System.currentTimeMillis() - pingStarted).isLessThan(5_000);
    // a new turn gets a clear error rather than hanging
    Throwable refused = Await.failure(ratchet
        .accept(TurnRequest.of("faults", "during-outage", FaultWorkload.turn("t-outage"))));
    assertThat(((RatchetException) refused).code()).isEqualTo("JOURNAL_UNAVAILABLE");
    long sleep = outage * 1000L - (System.currentTimeMillis() - down);
    if (sleep > 0) {
      Thread.sleep(sleep);
    }
    redis("always");
    long up = System.currentTimeMillis();
    Await.until(() -> ratchet.diagnostics().ping().toCompletionStage().toCompletableFuture().handle((v, e) -> e == null)
        .join(), 20);
    long reconnectMillis = System.currentTimeMillis() - up;
    load.finish();
    assertAllCompleteOnce(ratchet, workload, 60);
    assertThat(await(ratchet.submit("faults", "during-outage", FaultWorkload.turn("t-outage"))).calls())
        .extracting(CallResult::outcome).containsOnly(Outcome.SUCCEEDED);
    System.out.printf("outage %d s: %d turns acknowledged, %d submissions refused while Redis was down, health back %d ms"
        + " after Redis%n", outage, workload.acknowledged.size(), workload.refusals.get(),
        reconnectMillis);
  }

  @Test
  void connectionsCutUnderLoadAreReopenedAndNoStepIsLostOrSentTwice() throws Exception {
    RedisServerProcess server = redis("everysec");
    FaultWorkload workload = new FaultWorkload();
    RatchetNode ratchet = ratchet(server.url(), workload);
    Load load = new Load(ratchet, workload, 5);
    load.start();
    RedisJournal killer = await(RedisJournal.open(vertx, JournalOptions.of(server.url()).withKeyPrefix("faults")));
    cleanup.add(killer::close);
    for (int cut = 1; cut <= 5; cut++) {
      int before = workload.acknowledged.size();
      Await.until(() -> workload.acknowledged.size() >= before + 10, 30);
      // every client but the one asking: replies in flight are lost, steps may or may not have landed
      await(killer.send(io.vertx.redis.client.Request.cmd(io.vertx.redis.client.Command.CLIENT).arg("KILL")
          .arg("TYPE").arg("normal").arg("SKIPME").arg("yes")));
    }
    load.finish();
    assertAllCompleteOnce(ratchet, workload, 60);
  }

  @Test
  void aRedisWithoutPersistenceIsReportedAtStartUp() throws Exception {
    RedisServerProcess server = redis(null);
    java.io.PrintStream err = System.err;
    java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
    System.setErr(new java.io.PrintStream(captured, true));
    try {
      RatchetNode ratchet = await(RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl(server.url())
          .keyPrefix("faults")));
      cleanup.add(() -> await(ratchet.close()));
      Await.until(() -> captured.toString().contains("journal at"), 10);
    } finally {
      System.setErr(err);
    }
    String log = captured.toString();
    System.err.print(log);
    assertThat(log).contains("WARN").contains("AOF off")
        .contains("acknowledged steps will NOT survive a Redis restart");
  }
}
