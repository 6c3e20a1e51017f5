package dev.ratchet.server.chaos;

import dev.ratchet.host.FreePorts;
import dev.ratchet.runtime.journal.JournalOptions;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.embedded.RedisServerProcess;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The chaos run on a cluster ({@code chaos --nodes N}): N {@link ChaosNode} members on one Redis,
 * turns and decisions sent to random live members, one member killed with SIGKILL at a time and
 * started again on the same cluster port. After each kill, the time until every session the killed
 * member ran with work in flight has a live owner again is the takeover time. The rules checked at
 * the end are the single-node run's ({@link ChaosRun}).
 */
final class ClusterChaos {

  private final ChaosRun run;
  private final ChaosRun.Settings settings;
  private final ChaosRun.Report report;

  ClusterChaos(ChaosRun run) {
    this.run = run;
    this.settings = run.settings;
    this.report = run.report;
  }

  ChaosRun.Report run() throws Exception {
    long started = System.currentTimeMillis();
    report.nodes = settings.nodes();
    Path work = settings.workDir() != null ? settings.workDir() : Files.createTempDirectory("ratchet-chaos");
    RedisServerProcess redis = settings.redisUrl() == null
        ? RedisServerProcess.start(0, work.resolve("redis"), "always") : null;
    String redisUrl = redis != null ? redis.url() : settings.redisUrl();
    Vertx vertx = Vertx.vertx();
    List<Integer> ports = new ArrayList<>();
    for (int i = 0; i < settings.nodes(); i++) {
      ports.add(FreePorts.next());
    }
    String members = String.join(",", ports.stream().map(p -> "127.0.0.1:" + p).toList());
    List<ChaosRun.Child> nodes = new ArrayList<>();
    try (ChaosProvider provider = new ChaosProvider()) {
      RedisJournal journal = RedisJournal.open(vertx, JournalOptions.of(redisUrl).withKeyPrefix(run.prefix)).await();
      run.log.printf("chaos: %d nodes, %d kills, seed %d, redis %s, prefix %s, node logs in %s%n", settings.nodes(),
          settings.kills(), settings.seed(), redisUrl, run.prefix, work);
      for (int i = 0; i < settings.nodes(); i++) {
        nodes.add(start(redisUrl, provider, work, ports.get(i), members, i));
      }
      for (ChaosRun.Child n : nodes) {
        n.awaitReady(180);
      }
      for (int cycle = 0; cycle < settings.kills(); cycle++) {
        ChaosRun.Child entry = live(nodes);
        run.resubmitUnaccepted(entry);
        int n = 1 + run.random.nextInt(settings.turnsPerCycle() * 2);
        for (int i = 0; i < n; i++) {
          run.submit(live(nodes), run.newTurn());
        }
        long runFor = settings.minRunMillis()
            + (long) (run.random.nextDouble() * (settings.maxRunMillis() - settings.minRunMillis()));
        long end = System.currentTimeMillis() + runFor;
        while (System.currentTimeMillis() < end) {
          run.decideApprovals(journal, live(nodes));
          Thread.sleep(Math.min(40, Math.max(1, end - System.currentTimeMillis())));
        }
        int victim = run.random.nextInt(nodes.size());
        ChaosRun.Child killed = nodes.get(victim);
        Set<String> held = heldBy(journal, killed.node);
        killed.kill();
        long killedAt = System.currentTimeMillis();
        report.kills++;
        run.checkEffects(provider, "after kill " + report.kills);
        awaitTakeover(journal, held, killed.node, nodes, killedAt);
        ChaosRun.Child replacement = start(redisUrl, provider, work, ports.get(victim), members, victim);
        replacement.awaitReady(180);
        nodes.set(victim, replacement);
        if (report.kills % 10 == 0) {
          run.log.printf("chaos: %d kills, %d turns submitted, %d accepted, takeovers measured %d%n", report.kills,
              run.submitted.size(), run.accepted.size(), report.takeoverMillis.size());
        }
      }
      run.drain(journal, live(nodes));
      run.verify(journal, provider);
      journal.close();
    } finally {
      for (ChaosRun.Child n : nodes) {
        n.kill();
      }
      vertx.close().await();
      if (redis != null) {
        redis.close();
      }
    }
    report.submitErrors = run.submitErrors.get();
    report.wallMillis = System.currentTimeMillis() - started;
    return report;
  }

  private ChaosRun.Child start(String redisUrl, ChaosProvider provider, Path work, int port, String members, int slot)
      throws IOException {
    return run.new Child(redisUrl, provider.url(), work.resolve("node-" + slot + ".log"),
        List.of(String.valueOf(port), members));
  }

  private ChaosRun.Child live(List<ChaosRun.Child> nodes) {
    List<ChaosRun.Child> ready = nodes.stream().filter(ChaosRun.Child::isReady).toList();
    return ready.get(run.random.nextInt(ready.size()));
  }

  /** The sessions with work in flight whose owner is {@code node}. */
  private static Set<String> heldBy(RedisJournal journal, String node) {
    Set<String> held = new HashSet<>();
    for (String session : journal.queries().activeSessions().await()) {
      JsonObject info = journal.queries().sessionInfo(session).await();
      if (node != null && node.equals(info.getString("owner"))) {
        held.add(session);
      }
    }
    return held;
  }

  /**
   * Waits until no session of {@code held} that still has work in flight is owned by the killed node
   * any more, and records how long that took; a run where the survivors do not take over within a
   * minute breaks a rule.
   */
  private void awaitTakeover(RedisJournal journal, Set<String> held, String killed, List<ChaosRun.Child> nodes,
                             long killedAt) throws InterruptedException {
    if (held.isEmpty()) {
      return;
    }
    while (System.currentTimeMillis() - killedAt < 60_000) {
      Set<String> active = new HashSet<>(journal.queries().activeSessions().await());
      boolean done = true;
      for (String session : held) {
        if (active.contains(session) && killed.equals(journal.queries().sessionInfo(session).await().getString("owner"))) {
          done = false;
          break;
        }
      }
      if (done) {
        report.takeoverMillis.add(System.currentTimeMillis() - killedAt);
        return;
      }
      Thread.sleep(20);
    }
    report.violations.add("kill " + report.kills + ": the sessions of node " + killed + " were not taken over within"
        + " 60 s (" + nodes.stream().filter(ChaosRun.Child::isReady).count() + " nodes live)");
  }
}
