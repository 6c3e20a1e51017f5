package dev.ratchet.server.cli;

import dev.ratchet.server.chaos.ChaosReport;
import dev.ratchet.server.chaos.ChaosRun;
import picocli.CommandLine;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code ratchet.jar chaos --kills 300}: runs the runtime in a child JVM under a mixed workload,
 * SIGKILLs it at random moments, restarts it, and checks that no write was sent twice and nothing
 * was lost. {@code --nodes 3} runs a cluster of three and kills one member at a time. Prints the figures; the last line is one JSON object. Exits 1 when a rule was broken.
 */
@CommandLine.Command(name = "chaos", mixinStandardHelpOptions = true, description = "Kill the runtime at random under load and check the rules.")
public final class ChaosCommand implements Callable<Integer> {

  @CommandLine.Option(names = "--kills", defaultValue = "300", description = "SIGKILLs (default: ${DEFAULT-VALUE})")
  int kills;

  @CommandLine.Option(names = "--sessions", defaultValue = "12", description = "sessions (default: ${DEFAULT-VALUE})")
  int sessions;

  @CommandLine.Option(names = "--turns-per-cycle", defaultValue = "6",
      description = "about how many turns are submitted between two kills (default: ${DEFAULT-VALUE})")
  int turnsPerCycle;

  @CommandLine.Option(names = "--min-run-ms", defaultValue = "150",
      description = "shortest time the runtime lives before a kill (default: ${DEFAULT-VALUE})")
  long minRun;

  @CommandLine.Option(names = "--max-run-ms", defaultValue = "900",
      description = "longest time the runtime lives before a kill (default: ${DEFAULT-VALUE})")
  long maxRun;

  @CommandLine.Option(names = "--nodes", defaultValue = "1", description = "clustered runtimes, one killed at a time"
      + " (default: ${DEFAULT-VALUE}: one runtime, killed and restarted)")
  int nodes;

  @CommandLine.Option(names = "--seed", description = "random seed (default: the clock)")
  Long seed;

  @CommandLine.Option(names = "--redis-url",
      description = "an existing Redis (default: a redis-server of the run's own, AOF appendfsync always)")
  String redisUrl;

  @CommandLine.Option(names = "--work-dir", description = "where the Redis data and the runtime's log go")
  Path workDir;

  @Override
  public Integer call() throws Exception {
    ChaosRun.Settings settings = new ChaosRun.Settings(kills, sessions, turnsPerCycle, minRun, maxRun,
        seed != null ? seed : System.nanoTime(), redisUrl, workDir, 180, Math.max(1, nodes));
    ChaosReport report = new ChaosRun(settings, System.out).run();
    System.out.printf("kills %d, turns %d, calls %d, non-idempotent writes %d, duplicate effects %d,"
        + " duplicate outcomes %d, lost turns %d, outcome_unknown %d, pending approvals left %d, %.0f s%n",
        report.kills, report.turns, report.calls, report.nonIdempotentWrites, report.duplicateEffects,
        report.duplicateOutcomes, report.lostTurns, report.outcomeUnknown, report.pendingLeft,
        report.wallMillis / 1000.0);
    if (report.nodes > 1) {
      System.out.println("takeover after a kill (ms): " + report.toJson().getJsonObject("takeoverMs").encode()
          + " over " + report.takeoverMillis.size() + " kills that left sessions with work in flight");
    }
    report.violations.forEach(v -> System.out.println("VIOLATION " + v));
    System.out.println(report.toJson().encode());
    return report.violations.isEmpty() ? 0 : 1;
  }
}
