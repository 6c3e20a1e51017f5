package dev.ratchet.server.cluster;

import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A member of a two-member cluster stopped with SIGTERM, as a service manager stops it, hands its
 * sessions over instead of leaving them to a takeover: a write it is sending finishes there and
 * succeeds once, a turn sent meanwhile runs on the other member, and a session whose write waits
 * for approval moves at once and is decided on the other member (docs/CLUSTER.md, Leaving and joining).
 */
class ClusterLeaveTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  @TempDir
  Path dir;

  private ClusterRun cluster;
  private volatile int exitCode = -2;

  @AfterEach
  void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aMemberStoppedWithSigtermFinishesTheWriteItSendsAndHandsItsSessionsOverOnceParked() throws Exception {
    cluster = ClusterRun.start(REDIS, dir, "a", "b");
    MemberProcess leaving = cluster.members.get(0);
    MemberProcess staying = cluster.members.get(1);
    String leavingNode = ClusterRun.nodeId(leaving);
    // two sessions that placement gives to the member that will leave
    List<String> own = new ArrayList<>();
    for (int i = 0; own.size() < 2 && i < 40; i++) {
      cluster.submit(leaving, "g-" + i, "t0", "orders_get_order", new JsonObject().put("orderId", "1"));
      assertThat(cluster.outcome(leaving, "g-" + i, "t0")).isEqualTo("succeeded");
      if (leavingNode.equals(cluster.nodeOf("g-" + i))) {
        own.add("g-" + i);
      }
    }
    assertThat(own).as("sessions placed on " + leavingNode).hasSize(2);
    String sending = own.get(0);
    String parked = own.get(1);

    // one write waits for its decision while the other is being sent (the service answers after 4 s)
    cluster.submit(staying, parked, "t1", "orders_cancel_order", new JsonObject().put("orderId", "3001"));
    cluster.pendingApprovals(staying, parked, 1);
    cluster.submit(staying, sending, "t1", "orders_cancel_order", new JsonObject().put("orderId", "slow-1"));
    cluster.decide(staying, cluster.pendingApprovals(staying, sending, 1).get(0));
    cluster.until(() -> cluster.orders.cancels("slow-1") == 1, 30);

    long stopped = System.currentTimeMillis();
    Thread sigterm = new Thread(() -> {
      try {
        exitCode = leaving.terminate(60);
      } catch (IOException | InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    sigterm.start();
    // a turn for the busy session, sent while its member leaves, is kept for its next owner
    cluster.until(() -> new JsonObject(staying.send("GET", "/health", null, Map.of()).body()).getJsonObject("cluster")
        .getInteger("members") == 1, 30);
    cluster.submit(staying, sending, "t2", "orders_get_order", new JsonObject().put("orderId", "2"));
    sigterm.join(70_000);

    assertThat(exitCode).as("ended by its SIGTERM: " + leaving.output()).isEqualTo(143);
    assertThat(System.currentTimeMillis() - stopped).as("left well before cluster.leaveTimeoutMillis")
        .isLessThan(20_000);
    assertThat(cluster.outcome(staying, sending, "t1"))
        .as("the write in flight finished on the member that sent it\n" + cluster.outputs()).isEqualTo("succeeded");
    assertThat(cluster.orders.cancels("slow-1")).isEqualTo(1);
    assertThat(cluster.outcome(staying, sending, "t2")).isEqualTo("succeeded");
    assertThat(cluster.nodeOf(sending)).isEqualTo(ClusterRun.nodeId(staying));
    assertThat(leaving.output()).contains("2 session(s) handed over");

    cluster.decide(staying, cluster.pendingApprovals(staying, parked, 1).get(0));
    assertThat(cluster.outcome(staying, parked, "t1")).isEqualTo("succeeded");
    assertThat(cluster.orders.cancels("3001")).isEqualTo(1);
    assertThat(cluster.nodeOf(parked)).isEqualTo(ClusterRun.nodeId(staying));
  }
}
