package dev.ratchet.server.cluster;

import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.journal.ClaimedSession;
import dev.ratchet.runtime.journal.JournalOptions;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.runtime.journal.TurnSubmission;
import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.verticles.impl.cluster.Takeover;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A member keeps an idle copy of a session that another member claimed from it (membership was
 * wrong for a moment) and that then died with a turn in flight. When placement gives the session
 * back, the member drops its out-of-date copy and claims the session afresh: the turn in flight
 * resumes within a takeover sweep, not when the session is next used.
 */
class ClusterStaleCopyTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  @TempDir
  Path dir;

  private ClusterRun cluster;
  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
    await(vertx.close());
  }

  @Test
  void aTurnInFlightOfASessionThisMemberHoldsAnOutOfDateCopyOfResumesWithinATakeoverSweep() throws Exception {
    cluster = ClusterRun.start(REDIS, dir, "a");
    MemberProcess member = cluster.members.get(0);
    cluster.submit(member, "s-stale", "t1", "orders_get_order", new JsonObject().put("orderId", "1"));
    assertThat(cluster.outcome(member, "s-stale", "t1")).isEqualTo("succeeded");

    // another member claims the session while this one still runs it, journals a turn, and dies
    RedisJournal other = await(RedisJournal.open(vertx, JournalOptions.of(REDIS.url())
        .withKeyPrefix(REDIS.keyPrefix())));
    try {
      long epoch = await(other.claim("s-stale", "member-that-died").map(ClaimedSession::epoch));
      long journaled = System.nanoTime();
      await(other.submitTurn(TurnSubmission.of("s-stale", epoch, "orders",
          Turn.of("t2", new ToolCall("orders_get_order", new JsonObject().put("orderId", "2"))))));

      TurnResult[] result = new TurnResult[1];
      cluster.until(() -> (result[0] = await(other.turnResult("s-stale", "t2"))) != null, 30);
      long resumedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - journaled);
      assertThat(result[0].calls().get(0).outcome()).isEqualTo(Outcome.SUCCEEDED);
      assertThat(resumedMillis).as("resumed by the takeover sweep, not left to the session's next request")
          .isLessThan(Takeover.SWEEP_MILLIS * 2 + 2_000);
      assertThat(await(other.queries().sessionInfo("s-stale")).getString("owner"))
          .isEqualTo(ClusterRun.nodeId(member));
    } finally {
      await(other.close());
    }
  }
}
