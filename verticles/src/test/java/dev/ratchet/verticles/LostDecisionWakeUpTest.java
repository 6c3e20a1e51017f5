package dev.ratchet.verticles;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.journal.DecisionAnswer;
import dev.ratchet.runtime.journal.JournalOptions;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.runtime.journal.Verdict;
import dev.ratchet.runtime.testing.Await;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * In a cluster, the member that journals an approval decision publishes a wake-up for the
 * session's owner; the clustered event bus delivers it at most once, and may lose it while members
 * die and rejoin. The owner still acts on the journaled decision.
 */
@Timeout(60)
class LostDecisionWakeUpTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  /** The sweep's period for the idle time below: the bound on acting on a decision without its wake-up. */
  private static final long SWEEP_MILLIS = 1_000;

  private final Vertx vertx = Vertx.vertx();
  private RatchetNode owner;
  private RedisJournal otherMember;

  @AfterEach
  void close() {
    if (otherMember != null) {
      await(otherMember.close());
    }
    if (owner != null) {
      await(owner.close());
    }
    await(vertx.close());
  }

  @Test
  void aDecisionJournaledWithoutItsWakeUpStillRunsTheWaitingWriteOnceWithinASweep() {
    AtomicInteger refunds = new AtomicInteger();
    owner = await(RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl(REDIS.url())
        .keyPrefix(REDIS.keyPrefix()).sessionIdleMillis(SWEEP_MILLIS * 2)));
    await(owner.register(AgentDefinition.builder("shop").toolSource(FunctionToolSource.create("shop")
        .tool(FunctionToolSource.define("refund", EffectClass.NON_IDEMPOTENT_WRITE).approval(ApprovalRule.always())
            .handler(inv -> {
              refunds.incrementAndGet();
              return Future.succeededFuture(new JsonObject().put("refunded", true));
            }))).build()));
    Future<TurnResult> turn = owner.submit("shop", "s-lost-wake-up",
        Turn.of("t1", new ToolCall("refund", new JsonObject().put("orderId", "1001"))));

    // another member journals the decision, as any member does; its wake-up never reaches the owner
    otherMember = await(RedisJournal.open(vertx, JournalOptions.of(REDIS.url()).withKeyPrefix(REDIS.keyPrefix())));
    AtomicReference<ApprovalRequest> pending = new AtomicReference<>();
    Await.until(() -> {
      List<ApprovalRequest> asked = await(otherMember.queries().pendingApprovals(10));
      pending.set(asked.isEmpty() ? null : asked.get(0));
      return pending.get() != null;
    }, 10);
    long decided = System.nanoTime();
    assertThat(await(otherMember.approvalDecided("s-lost-wake-up", pending.get().callId(),
        new Verdict(pending.get().argumentsHash(), "approved", "judge", "refund it"))))
        .isEqualTo(DecisionAnswer.ACCEPTED);

    TurnResult result = await(turn, 10);
    long ranAfterMillis = (System.nanoTime() - decided) / 1_000_000;
    assertThat(result.calls().get(0).outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(refunds.get()).isEqualTo(1);
    assertThat(ranAfterMillis).as("ran after the decision was journaled, without its wake-up")
        .isLessThan(SWEEP_MILLIS * 3);
  }
}
