package dev.ratchet.server.chaos;

import dev.ratchet.host.FreePorts;
import dev.ratchet.runtime.journal.JournalOptions;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.embedded.RedisServerProcess;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The chaos run on a cluster ({@code chaos --nodes N}): N {@link ChaosNode} members on one Redis,
 * turns and decisions sent to random live members, one member killed with SIGKILL at a time and
 * started again on the same cluster port. After each kill, the time until every session the killed
 * member ran with work in flight (a submitted turn journaled and not completed) has a live owner
 * again is the takeover time; its idle sessions are claimed when next used. The rules checked at
 * the end are the single-node run's ({@link ChaosRun}).
 */
final class ClusterChaos {

  private final ChaosRun run;
  private final ChaosRun.Settings settings;
  private final ChaosReport report;

  ClusterChaos(ChaosRun run) {
    this.run = run;
    this.settings = run.settings;
    this.report = run.report;
  }

  ChaosReport run() throws Exception {
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
    List<ChaosChild> nodes = new ArrayList<>();
    try (ChaosProvider provider = new ChaosProvider()) {
      RedisJournal journal = RedisJournal.open(vertx, JournalOptions.of(redisUrl).withKeyPrefix(run.prefix)).await();
      run.log.printf("chaos: %d nodes, %d kills, seed %d, redis %s, prefix %s, node logs in %s%n", settings.nodes(),
          settings.kills(), settings.seed(), redisUrl, run.prefix, work);
      for (int i = 0; i < settings.nodes(); i++) {
        nodes.add(start(redisUrl, provider, work, ports.get(i), members, i));
      }
      for (ChaosChild n : nodes) {
        n.awaitReady(180);
      }
      for (int cycle = 0; cycle < settings.kills(); cycle++) {
        ChaosChild entry = live(nodes);
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
        ChaosChild killed = nodes.get(victim);
        Set<String> owned = ownedBy(journal, killed.node);
        killed.kill();
        long killedAt = System.currentTimeMillis();
        report.kills++;
        run.checkEffects(provider, "after kill " + report.kills);
        awaitTakeover(journal, turnsInFlight(journal, owned), killed.node, nodes, killedAt);
        ChaosChild replacement = start(redisUrl, provider, work, ports.get(victim), members, victim);
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
      for (ChaosChild n : nodes) {
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

  private ChaosChild start(String redisUrl, ChaosProvider provider, Path work, int port, String members, int slot)
      throws IOException {
    return new ChaosChild(run, redisUrl, provider.url(), work.resolve("node-" + slot + ".log"),
        List.of(String.valueOf(port), members));
  }

  private ChaosChild live(List<ChaosChild> nodes) {
    List<ChaosChild> ready = nodes.stream().filter(ChaosChild::isReady).toList();
    return ready.get(run.random.nextInt(ready.size()));
  }

  /**
   * The sessions the journal lists as active whose owner is {@code node}; read before the kill, since
   * survivors may claim some of them as soon as it is done.
   */
  private static Set<String> ownedBy(RedisJournal journal, String node) {
    Set<String> owned = new HashSet<>();
    for (String session : journal.queries().activeSessions().await()) {
      JsonObject info = journal.queries().sessionInfo(session).await();
      if (node != null && node.equals(info.getString("owner"))) {
        owned.add(session);
      }
    }
    return owned;
  }

  /**
   * The turns not completed, by session, that this run submitted to the sessions of {@code owned} and
   * that the journal holds: the work in flight the dead member left. Read after the kill, when the
   * dead member can no longer finish one, and from the run's own turns rather than asked of the
   * runtime, so that a turn the runtime would wrongly think finished (waiting for an approval, say)
   * still counts. The run's workload is turns only: an open round of the agent loop does not occur.
   */
  private Map<String, Integer> turnsInFlight(RedisJournal journal, Set<String> owned) {
    List<Future<String>> open = new ArrayList<>();
    for (ChaosRun.Submitted s : run.submitted.values()) {
      if (owned.contains(s.sessionId()) && !run.delivered.containsKey(s.id())) {
        String turnId = s.turn().turnId();
        open.add(journal.turnResult(s.sessionId(), turnId).compose(result -> result != null
            ? Future.succeededFuture(null)
            : journal.queries().submittedTurn(s.sessionId(), turnId).map(t -> t == null ? null : s.sessionId())));
      }
    }
    Future.all(open).await();
    Map<String, Integer> inFlight = new TreeMap<>();
    open.forEach(f -> {
      if (f.result() != null) {
        inFlight.merge(f.result(), 1, Integer::sum);
      }
    });
    return inFlight;
  }

  /**
   * Waits until no session of {@code inFlight} is owned by the killed node any more, and records how
   * long that took; a run where the survivors do not take them over within a minute breaks a rule.
   * The dead member's sessions without work in flight keep it as their owner until they are next
   * used (docs/ARCHITECTURE.md, "More than one node"): the drain's check that every turn completes
   * covers them.
   */
  private void awaitTakeover(RedisJournal journal, Map<String, Integer> inFlight, String killed,
                             List<ChaosChild> nodes, long killedAt) throws InterruptedException {
    if (inFlight.isEmpty()) {
      return;
    }
    Set<String> left = new TreeSet<>(inFlight.keySet());
    while (System.currentTimeMillis() - killedAt < 60_000) {
      left.removeIf(session -> !killed.equals(journal.queries().sessionInfo(session).await().getString("owner")));
      if (left.isEmpty()) {
        report.takeoverMillis.add(System.currentTimeMillis() - killedAt);
        return;
      }
      Thread.sleep(20);
    }
    StringBuilder sessions = new StringBuilder();
    left.forEach(s -> sessions.append(sessions.isEmpty() ? "" : ", ").append(s).append(" (")
        .append(inFlight.get(s)).append(" turn(s) in flight)"));
    report.violations.add("kill " + report.kills + ": sessions of node " + killed + " with work in flight were not"
        + " taken over within 60 s: " + sessions + "; " + nodes.stream().filter(ChaosChild::isReady).count()
        + " nodes live");
  }
}
