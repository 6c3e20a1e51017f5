package dev.ratchet.verticles;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.journal.RedisTopology;
import dev.ratchet.runtime.testing.Await;
import dev.ratchet.runtime.testing.TestRedisCluster;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A runtime whose journal is a real three-master Redis Cluster: turns in sessions spread over the
 * masters, an approval listed from the global inbox and decided, a restart that resumes from what
 * the cluster holds; the start-up line names the cluster and what its replicas guarantee.
 */
class RedisClusterRuntimeTest {

  @RegisterExtension
  static final TestRedisCluster CLUSTER = new TestRedisCluster(3);

  private final List<Vertx> vertxes = new ArrayList<>();
  private final AtomicInteger refunds = new AtomicInteger();

  @AfterEach
  void close() {
    vertxes.forEach(v -> await(v.close()));
  }

  private RatchetNode deploy() {
    Vertx vertx = Vertx.vertx();
    vertxes.add(vertx);
    RatchetNode ratchet = await(RatchetNode.deploy(vertx, RatchetOptions.create().keyPrefix(CLUSTER.keyPrefix())
        .redisTopology(RedisTopology.cluster(CLUSTER.endpoints().subList(0, 1))).sessionIdleMillis(300)));
    await(ratchet.register(AgentDefinition.builder("shop").toolSource(FunctionToolSource.create("shop")
        .read("look", "look", new JsonObject().put("type", "object"), inv -> Future.succeededFuture("order"))
        .tool(FunctionToolSource.define("refund", EffectClass.NON_IDEMPOTENT_WRITE)
            .approval(ApprovalRule.always()).handler(inv -> {
              refunds.incrementAndGet();
              return Future.succeededFuture("refunded");
            }))).build()));
    return ratchet;
  }

  @Test
  void aRuntimeWaitingForReplicasTheMastersLackSaysSoAtStartUp() throws Exception {
    Vertx vertx = Vertx.vertx();
    vertxes.add(vertx);
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true));
    try {
      RatchetNode ratchet = await(RatchetNode.deploy(vertx, RatchetOptions.create()
          .keyPrefix(CLUSTER.keyPrefix() + "-w")
          .redisTopology(RedisTopology.cluster(CLUSTER.endpoints())).waitReplicas(1, 200)));
      Await.until(() -> captured.toString().contains("replica(s) now"), 10);
      await(ratchet.close());
    } finally {
      System.setErr(err);
    }
    assertThat(captured.toString())
        .contains("every step waits until 1 replica(s) hold it (WAIT, at most 200 ms, else it fails with"
            + " JOURNAL_NOT_REPLICATED)")
        .contains("WARN").contains("journal.waitReplicas is 1 but a master of the journal has 0 replica(s) now");
  }

  @Test
  void turnsApprovalsAndARestartRunOnTheClusterWithEveryWriteSentOnce() throws Exception {
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true));
    RatchetNode ratchet;
    try {
      ratchet = deploy();
      Await.until(() -> captured.toString().contains("journal at"), 10);
    } finally {
      System.setErr(err);
    }
    assertThat(captured.toString()).contains("journal at Redis Cluster via " + CLUSTER.endpoints().get(0))
        .contains("steps do not wait for replicas (journal.waitReplicas 0)");

    List<Future<TurnResult>> reads = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      reads.add(ratchet.submit("shop", "s-read-" + i, Turn.of("t1", new ToolCall("look", null))));
    }
    await(Future.all(reads));
    assertThat(reads).allSatisfy(r -> assertThat(r.result().call(0).result()).isEqualTo("order"));

    ratchet.submit("shop", "s-refund", Turn.of("t1", new ToolCall("refund", null)));
    Await.until(() -> !await(ratchet.pendingApprovals()).isEmpty(), 10);
    ApprovalRequest pending = await(ratchet.pendingApprovals()).get(0);
    assertThat(pending.sessionId()).isEqualTo("s-refund");
    await(ratchet.close());

    // a new runtime on the same cluster: the approval still waits, and deciding it runs the refund once
    RatchetNode restarted = deploy();
    Await.until(() -> !await(restarted.pendingApprovals()).isEmpty(), 10);
    await(restarted.decide(ApprovalDecision.approve(await(restarted.pendingApprovals()).get(0), "alice", "ok")));
    Await.until(() -> {
      TurnResult done = await(restarted.journal().turnResult("s-refund", "t1"));
      return done != null;
    }, 10);
    assertThat(await(restarted.journal().turnResult("s-refund", "t1")).call(0).result()).isEqualTo("refunded");
    TurnResult again = await(restarted.submit("shop", "s-refund", Turn.of("t1", new ToolCall("refund", null))));
    assertThat(again.call(0).outcome().wireName()).isEqualTo("succeeded");
    assertThat(refunds.get()).isEqualTo(1);
    await(restarted.close());
  }
}
