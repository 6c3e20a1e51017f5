package dev.ratchet.runtime.journal;

import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** How a pipeline is cut for a Redis Cluster: runs of one slot, in the pipeline's order. */
class SlotRunsTest {

  private static final JournalKeys KEYS = new JournalKeys("ratchet");

  @Test
  void aSessionsCommandsStayOneRunAndTheGlobalIndexesEachGetTheirOwnInOrder() {
    Request active = Request.cmd(Command.SADD).arg(KEYS.activeSessions()).arg("s-1");
    Request recent = Request.cmd(Command.ZADD).arg(KEYS.recentSessions()).arg(1).arg("s-1");
    Request meta = Request.cmd(Command.HGET).arg(KEYS.meta("s-1")).arg("epoch");
    Request script = Request.cmd(Command.EVALSHA).arg("0123").arg(2).arg(KEYS.meta("s-1")).arg(KEYS.events("s-1"));
    Request wait = Request.cmd(Command.WAIT).arg(1).arg(100);

    List<List<Request>> runs = SlotRuns.of(List.of(active, recent, meta, script, wait));

    assertThat(SlotRuns.slot(active)).isNotEqualTo(SlotRuns.slot(recent));
    assertThat(runs).containsExactly(List.of(active), List.of(recent), List.of(meta, script, wait));
    assertThat(SlotRuns.slot(script)).isEqualTo(SlotRuns.slot(meta)).isEqualTo(SlotRuns.slot(
        Request.cmd(Command.GET).arg(KEYS.call("s-1", "c-9"))));
  }

  @Test
  void scriptsAndIndexWritesAreWritesAndReadsAreNot() {
    assertThat(SlotRuns.writes(Request.cmd(Command.EVALSHA).arg("0123").arg(1).arg(KEYS.meta("s-1")))).isTrue();
    assertThat(SlotRuns.writes(Request.cmd(Command.ZADD).arg(KEYS.pendingApprovals()).arg(1).arg("m"))).isTrue();
    assertThat(SlotRuns.writes(Request.cmd(Command.HMGET).arg(KEYS.meta("s-1")).arg("agent"))).isFalse();
    assertThat(SlotRuns.writes(Request.cmd(Command.XRANGE).arg(KEYS.events("s-1")).arg("-").arg("+"))).isFalse();
  }
}
