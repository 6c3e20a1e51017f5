package dev.ratchet.server.chaos;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The short chaos run CI does: 12 SIGKILLs of a runtime in a child JVM under a mixed workload, on a
 * Redis of its own with AOF appendfsync always. The documented run is {@code ratchet.jar chaos --kills 300}.
 */
class ChaosTest {

  @Test
  void twelveKillsUnderLoadLoseNothingAndSendNoWriteTwice() throws Exception {
    long seed = Long.getLong("ratchet.chaos.seed", System.nanoTime());
    ChaosReport report = new ChaosRun(ChaosRun.Settings.defaults(Integer.getInteger("ratchet.chaos.kills", 12))
        .withSeed(seed), System.out).run();
    System.out.println(report.toJson().encodePrettily());
    assertThat(report.violations).as("rules broken (seed " + seed + ")").isEmpty();
    assertThat(report.kills).isEqualTo(Integer.getInteger("ratchet.chaos.kills", 12));
    assertThat(report.turns).isPositive();
    assertThat(report.lostTurns).isZero();
    assertThat(report.duplicateEffects).isZero();
    assertThat(report.duplicateOutcomes).isZero();
    assertThat(report.pendingLeft).isZero();
    // the workload really was mixed: every tool ran and some approvals were decided
    assertThat(report.byTool).containsKeys("read_item", "upsert", "upsert_blind", "charge", "charge_approved");
    assertThat(report.approvalsApproved + report.approvalsRejected).isPositive();
  }
}
