package dev.ratchet.server.chaos;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The short cluster chaos run CI does: three clustered runtimes under a mixed workload, one member
 * killed with SIGKILL at a time, three times. The documented run is
 * {@code ratchet.jar chaos --nodes 3 --kills 100} (docs/RELIABILITY.md).
 */
class ClusterChaosTest {

  @Test
  void killingClusterMembersUnderLoadLosesNothingAndSendsNoWriteTwice() throws Exception {
    long seed = Long.getLong("ratchet.chaos.seed", System.nanoTime());
    int kills = Integer.getInteger("ratchet.chaos.clusterKills", 3);
    ChaosRun.Report report = new ChaosRun(ChaosRun.Settings.defaults(kills).withNodes(3).withSeed(seed), System.out)
        .run();
    System.out.println(report.toJson().encodePrettily());
    assertThat(report.violations).as("rules broken (seed " + seed + ")").isEmpty();
    assertThat(report.nodes).isEqualTo(3);
    assertThat(report.kills).isEqualTo(kills);
    assertThat(report.turns).isPositive();
    assertThat(report.lostTurns).isZero();
    assertThat(report.duplicateEffects).isZero();
    assertThat(report.duplicateOutcomes).isZero();
    assertThat(report.pendingLeft).isZero();
  }
}
