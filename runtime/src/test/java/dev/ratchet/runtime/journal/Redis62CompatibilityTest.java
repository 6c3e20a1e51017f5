package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.engine.EngineOptions;
import dev.ratchet.runtime.engine.SessionEngine;
import dev.ratchet.embedded.RedisServerProcess;
import dev.ratchet.runtime.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/** The journal on the Redis 6.2 server that ships with Ratchet, whatever redis-server is on PATH. */
class Redis62CompatibilityTest {

  @Test
  void aTurnWithAnApprovalRunsAndIsJournaledOnRedis62(@TempDir Path dir) throws Exception {
    try (RedisServerProcess redis = RedisServerProcess.start(RedisServerProcess.bundledBinary(), 0, dir, "always")) {
      Vertx vertx = Vertx.vertx();
      try {
        RedisJournal journal = await(RedisJournal.open(vertx, JournalOptions.of(redis.url())));
        Persistence persistence = await(journal.diagnostics().persistence());
        assertThat(persistence.redisVersion()).startsWith("6.2");
        assertThat(persistence.aofEnabled()).isTrue();
        assertThat(persistence.appendfsync()).isEqualTo("always");

        FunctionToolSource tools = FunctionToolSource.create("t")
            .read("look", "look", new JsonObject().put("type", "object"), inv -> Future.succeededFuture("order"))
            .tool(FunctionToolSource.define("cancel", EffectClass.NON_IDEMPOTENT_WRITE).approval(ApprovalRule.always())
                .handler(inv -> Future.succeededFuture("cancelled")));
        ToolCatalog catalog = await(ToolCatalog.resolve(vertx, AgentDefinition.builder("a").toolSource(tools).build()));
        SessionEngine engine = new SessionEngine(vertx, journal, "s62", catalog, EngineOptions.DEFAULT, null);
        await(engine.start("node"));
        Future<TurnResult> pending = engine.submit(new Turn("t1", List.of(new ToolCall("look", null),
            new ToolCall("cancel", null))));
        Await.until(() -> !await(journal.queries().pendingApprovals(10)).isEmpty(), 10);
        ApprovalRequest request = await(journal.queries().pendingApprovals(10)).get(0);
        await(engine.decide(ApprovalDecision.approve(request, "alice", "ok")));
        TurnResult result = await(pending);
        assertThat(result.calls()).extracting(c -> c.outcome()).containsExactly(Outcome.SUCCEEDED, Outcome.SUCCEEDED);
        assertThat(await(journal.queries().events("s62", null, 100))).extracting(e -> e.getString("type"))
            .containsSubsequence("turn.submitted", "approval.requested", "approval.decided", "call.started",
                "turn.completed");
        journal.close();
      } finally {
        await(vertx.close());
      }
    }
  }
}
