package dev.ratchet.verticles;

import dev.ratchet.runtime.journal.ClaimedSession;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnRequest;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.testing.Await;
import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.verticles.impl.RatchetNodeImpl;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/** Many sessions at once: recovery resumes each exactly once, and passivation leaves nothing behind. */
class ManySessionsTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  /** More than one pipeline's worth, so that recovery's batched reads and claims span several pipelines. */
  private static final int SESSIONS = 1_100;

  private static AgentDefinition agent(String name, boolean answers, Map<String, AtomicInteger> runs) {
    FunctionToolSource tools = FunctionToolSource.create(name)
        .tool(FunctionToolSource.define("read", EffectClass.READ).handler(inv -> {
          runs.computeIfAbsent(inv.callId().value(), k -> new AtomicInteger()).incrementAndGet();
          return answers ? Future.succeededFuture("ok") : Promise.<Object>promise().future();
        }));
    return AgentDefinition.builder(name).toolSource(tools).build();
  }

  private static RatchetOptions options(String prefix) {
    return RatchetOptions.create().redisUrl(REDIS.url()).keyPrefix(prefix);
  }

  @Test
  void recoveryResumesEverySessionInFlightExactlyOnceAndOnlyThoseOfTheRegisteredAgent() {
    String prefix = REDIS.keyPrefix() + "-" + UUID.randomUUID().toString().substring(0, 6);
    Turn turn = new Turn("t1", List.of(new ToolCall("read", new JsonObject()), new ToolCall("read", new JsonObject())));

    // a first node journals a turn in every session, starts its reads, which never answer, and dies
    Vertx first = Vertx.vertx();
    Map<String, AtomicInteger> firstRuns = new ConcurrentHashMap<>();
    RatchetNodeImpl crashed = (RatchetNodeImpl) await(RatchetNode.deploy(first, options(prefix)));
    await(crashed.register(agent("main", false, firstRuns)));
    await(crashed.register(agent("other", false, firstRuns)));
    List<Future<?>> accepted = new ArrayList<>();
    for (int s = 0; s < SESSIONS; s++) {
      accepted.add(crashed.accept(TurnRequest.of(s % 10 == 0 ? "other" : "main", "m-" + s, turn)));
    }
    await(Future.all(accepted), 60);
    Await.until(() -> firstRuns.size() == 2 * SESSIONS, 30);
    await(first.close());

    Vertx vertx = Vertx.vertx();
    try {
      Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
      RatchetNode ratchet = await(RatchetNode.deploy(vertx, options(prefix)));
      await(ratchet.register(agent("main", true, runs)), 60);
      int mine = SESSIONS - SESSIONS / 10;
      assertThat(ratchet.activeSessions()).isEqualTo(mine);

      for (int s = 0; s < SESSIONS; s++) {
        String sessionId = "m-" + s;
        if (s % 10 == 0) {
          assertThat(runs).doesNotContainKey(turn.callId(sessionId, 0).value());
          continue;
        }
        int session = s;
        Await.until(() -> await(ratchet.journal().turnResult("m-" + session, "t1")) != null, 30);
        TurnResult result = await(ratchet.journal().turnResult(sessionId, "t1"));
        assertThat(result.call(0).outcome()).isEqualTo(Outcome.SUCCEEDED);
        assertThat(result.call(1).outcome()).isEqualTo(Outcome.SUCCEEDED);
        assertThat(runs.get(turn.callId(sessionId, 0).value()).get()).as("first read of %s", sessionId).isEqualTo(1);
        assertThat(runs.get(turn.callId(sessionId, 1).value()).get()).as("second read of %s", sessionId).isEqualTo(1);
        assertThat(await(ratchet.journal().sessionInfo(sessionId)).getLong("epoch")).isEqualTo(2L);
      }
      assertThat(runs).hasSize(2 * mine);
      await(ratchet.close());
    } finally {
      await(vertx.close());
    }
  }

  @Test
  void aPassivatedSessionLeavesNoDeploymentAndNoEntryInTheSessionManager() {
    String prefix = REDIS.keyPrefix() + "-" + UUID.randomUUID().toString().substring(0, 6);
    Vertx vertx = Vertx.vertx();
    try {
      RatchetNodeImpl ratchet = (RatchetNodeImpl) await(RatchetNode.deploy(vertx, options(prefix)
          .sessionIdleMillis(200)));
      // every read waits until all 200 sessions run, so that none is idle (and passivated) before they are counted
      Promise<Object> gate = Promise.promise();
      FunctionToolSource tools = FunctionToolSource.create("gated")
          .tool(FunctionToolSource.define("read", EffectClass.READ).handler(inv -> gate.future()));
      await(ratchet.register(AgentDefinition.builder("main").toolSource(tools).build()));
      int deploymentsBefore = vertx.deploymentIDs().size();
      List<Future<TurnResult>> turns = new ArrayList<>();
      for (int s = 0; s < 200; s++) {
        turns.add(ratchet.submit("main", "p-" + s, Turn.of("t1", new ToolCall("read", new JsonObject()))));
      }
      Await.until(() -> vertx.deploymentIDs().size() == deploymentsBefore + 200, 60);
      vertx.runOnContext(v -> gate.complete(new JsonObject().put("ok", true)));
      await(Future.all(turns), 60);

      Await.until(() -> ratchet.activeSessions() == 0 && ratchet.trackedSessions() == 0, 30);
      Await.until(() -> vertx.deploymentIDs().size() == deploymentsBefore, 10);
      // idle sessions leave the recovery index: a restart has nothing to resume
      Await.until(() -> await(ratchet.redisJournal().queries().activeSessions()).isEmpty(), 10);
      await(ratchet.close());
    } finally {
      await(vertx.close());
    }
  }

  @Test
  void aFencedSessionIsPassivatedLongBeforeItsIdleTimeout() {
    String prefix = REDIS.keyPrefix() + "-" + UUID.randomUUID().toString().substring(0, 6);
    Vertx vertx = Vertx.vertx();
    try {
      Promise<Object> answer = Promise.promise();
      FunctionToolSource tools = FunctionToolSource.create("slow")
          .tool(FunctionToolSource.define("read", EffectClass.READ).handler(inv -> answer.future()));
      RatchetNodeImpl ratchet = (RatchetNodeImpl) await(RatchetNode.deploy(vertx, options(prefix)
          .sessionIdleMillis(600_000)));
      await(ratchet.register(AgentDefinition.builder("main").toolSource(tools).build()));
      Future<TurnResult> result = await(ratchet.accept(TurnRequest.of("main", "f-1",
          Turn.of("t1", new ToolCall("read", null))))).result();
      assertThat(ratchet.activeSessions()).isEqualTo(1);

      // another node takes the session over; this one learns it at its next append
      await(ratchet.redisJournal().claim("f-1", "node-2").map(ClaimedSession::epoch));
      vertx.runOnContext(v -> answer.complete("late"));

      assertThat(((dev.ratchet.runtime.RatchetException) Await.failure(result)).code()).isEqualTo("FENCED");
      Await.until(() -> ratchet.activeSessions() == 0 && ratchet.trackedSessions() == 0, 15);
      await(ratchet.close());
    } finally {
      await(vertx.close());
    }
  }
}
