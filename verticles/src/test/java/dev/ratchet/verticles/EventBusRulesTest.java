package dev.ratchet.verticles;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.testing.Await;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.ratchet.runtime.testing.Await.await;
import static dev.ratchet.runtime.testing.Await.failure;
import static org.assertj.core.api.Assertions.assertThat;

/** The event bus refuses what the HTTP API refuses, with the same codes (docs/EVENT-BUS.md). */
class EventBusRulesTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private final Vertx vertx = Vertx.vertx();
  private RatchetNode ratchet;
  private ApprovalRequest pending;
  private volatile int looked;

  @BeforeEach
  void start() {
    ratchet = await(RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl(REDIS.url())
        .keyPrefix(REDIS.keyPrefix())));
    FunctionToolSource tools = FunctionToolSource.create("rules")
        .read("look", "look", new JsonObject().put("type", "object").put("required", new JsonArray().add("q"))
            .put("properties", new JsonObject().put("q", new JsonObject().put("type", "string"))), inv -> {
              looked++;
              return Future.succeededFuture("seen");
            })
        .tool(FunctionToolSource.define("pay", EffectClass.NON_IDEMPOTENT_WRITE).approval(ApprovalRule.always())
            .handler(inv -> Future.succeededFuture("paid")));
    await(ratchet.register(AgentDefinition.builder("rules").toolSource(tools).build()));
    ratchet.submit("rules", "known", Turn.of("waiting", new ToolCall("pay", new JsonObject().put("amount", 1))));
    Await.until(() -> !await(ratchet.pendingApprovals()).isEmpty(), 10);
    pending = await(ratchet.pendingApprovals()).get(0);
  }

  @AfterEach
  void stop() {
    await(ratchet.close());
    await(vertx.close());
  }

  private ReplyException refused(String address, Object body) {
    return (ReplyException) failure(vertx.eventBus().request(address, body));
  }

  @Test
  void aRejectionWithoutAReasonIsRefusedWith400AndTheWriteStillWaits() {
    JsonObject rejection = new JsonObject().put("sessionId", "known").put("callId", pending.callId().value())
        .put("argumentsHash", pending.argumentsHash()).put("approved", false).put("approver", "alice");

    ReplyException e = refused(Addresses.DECIDE, rejection);

    assertThat(e.failureCode()).isEqualTo(400);
    assertThat(e.getMessage()).isEqualTo("INVALID_REQUEST: a rejection needs a 'reason'; the model is told it");
    assertThat(await(ratchet.pendingApprovals())).contains(pending);
  }

  @Test
  void resultsForAnUnknownSessionAreAnErrorNotPending() {
    ReplyException e = refused(Addresses.RESULTS, new JsonObject().put("sessionId", "nobody").put("turnId", "t1"));

    assertThat(e.failureCode()).isEqualTo(404);
    assertThat(e.getMessage()).isEqualTo("UNKNOWN_SESSION: no session 'nobody'");
    JsonObject known = await(vertx.eventBus().<JsonObject>request(Addresses.RESULTS,
        new JsonObject().put("sessionId", "known").put("turnId", "waiting"))).body();
    assertThat(known.getString("status")).isEqualTo("pending");
  }

  @Test
  void aPendingApprovalsRequestWhoseBodyIsNotJsonIsRefused() {
    ReplyException e = refused(Addresses.PENDING, "{not json");

    assertThat(e.failureCode()).isEqualTo(400);
    assertThat(e.getMessage()).startsWith("INVALID_REQUEST: ");
    JsonObject answer = await(vertx.eventBus().<JsonObject>request(Addresses.PENDING, new JsonObject())).body();
    assertThat(answer.getJsonArray("approvals")).hasSize(1);
  }

  @Test
  void aTurnWithAnEmptyListOfCallsIsRefusedAndJournalsNothing() {
    JsonObject submit = new JsonObject().put("agent", "rules").put("sessionId", "empty")
        .put("turn", new JsonObject().put("turnId", "t1").put("calls", new JsonArray()));

    ReplyException e = refused(Addresses.SUBMIT, submit);

    assertThat(e.failureCode()).isEqualTo(400);
    assertThat(e.getMessage()).isEqualTo("INVALID_REQUEST: 'turn.calls' is empty; a turn needs at least one call");
    assertThat(await(ratchet.journal().events("empty", null, 100))).isEmpty();
    assertThat(await(ratchet.journal().sessionInfo("empty")).getString("agent")).isNull();
  }

  @Test
  void aWellFormedTurnWithAnUnknownToolOrArgumentsTheToolRefusesIsAcceptedAndEachCallEndsFailedUnrun() {
    JsonObject submit = new JsonObject().put("agent", "rules").put("sessionId", "odd").put("turn", new JsonObject()
        .put("turnId", "t1").put("calls", new JsonArray()
            .add(new JsonObject().put("name", "no_such_tool").put("arguments", new JsonObject()))
            .add(new JsonObject().put("name", "look").put("arguments", new JsonObject().put("q", 5)))
            .add(new JsonObject().put("name", "look").put("arguments", new JsonObject())
                .put("rawArguments", "{\"q\": \"unfinished"))));

    JsonObject reply = await(vertx.eventBus().<JsonObject>request(Addresses.SUBMIT, submit)).body();

    assertThat(reply.getString("status")).isIn("accepted", "completed");
    Await.until(() -> "completed".equals(await(vertx.eventBus().<JsonObject>request(Addresses.RESULTS,
        new JsonObject().put("sessionId", "odd").put("turnId", "t1"))).body().getString("status")), 10);
    JsonArray results = await(vertx.eventBus().<JsonObject>request(Addresses.RESULTS,
        new JsonObject().put("sessionId", "odd").put("turnId", "t1"))).body().getJsonObject("results")
        .getJsonArray("results");
    assertThat(results).hasSize(3);
    for (Object o : results) {
      JsonObject r = (JsonObject) o;
      assertThat(r.getString("outcome")).as(r.encode()).isEqualTo("failed");
      assertThat(r.getString("error")).as(r.encode()).isNotBlank();
    }
    assertThat(results.getJsonObject(0).getString("error")).contains("no_such_tool");
    assertThat(results.getJsonObject(1).getString("error")).contains("q");
    assertThat(looked).as("no call ran").isZero();
  }

  @Test
  void aResultQueryForATurnNeverSubmittedIsUnknownTurnNotPending() {
    ReplyException e = refused(Addresses.RESULTS, new JsonObject().put("sessionId", "known").put("turnId", "never"));

    assertThat(e.failureCode()).isEqualTo(404);
    assertThat(e.getMessage()).startsWith("UNKNOWN_TURN: session 'known' holds no turn 'never'");
  }

  @Test
  void aResentTurnIdAnswersCompletedWithItsResultsOnTheReplyAndOnTheReplyAddress() {
    List<JsonObject> replies = new CopyOnWriteArrayList<>();
    await(vertx.eventBus().<JsonObject>consumer("agent.replies", msg -> replies.add(msg.body())).completion());
    JsonObject submit = new JsonObject().put("agent", "rules").put("sessionId", "resent").put("replyAddress",
        "agent.replies").put("turn", new JsonObject().put("turnId", "t1").put("calls", new JsonArray()
            .add(new JsonObject().put("name", "look").put("arguments", new JsonObject().put("q", "a")))));

    await(vertx.eventBus().<JsonObject>request(Addresses.SUBMIT, submit));
    Await.until(() -> replies.size() == 1, 10);
    JsonObject again = await(vertx.eventBus().<JsonObject>request(Addresses.SUBMIT, submit)).body();

    assertThat(again.getString("status")).isEqualTo("completed");
    assertThat(again.getJsonObject("results")).isEqualTo(replies.get(0).getJsonObject("results"));
    Await.until(() -> replies.size() == 2, 10);
    assertThat(replies.get(1)).isEqualTo(replies.get(0));
    assertThat(replies.get(0).getString("status")).isEqualTo("completed");
    assertThat(looked).as("the resent turn did not run again").isEqualTo(1);
  }

  @Test
  void theReplyAddressIsJournaledWithTheTurnSoTheNodeThatResumesItAnswers() {
    List<JsonObject> replies = new CopyOnWriteArrayList<>();
    await(vertx.eventBus().<JsonObject>consumer("agent.after-restart", msg -> replies.add(msg.body())).completion());
    await(vertx.eventBus().request(Addresses.SUBMIT, new JsonObject().put("agent", "rules").put("sessionId", "later")
        .put("replyAddress", "agent.after-restart").put("turn", new JsonObject().put("turnId", "t1")
            .put("calls", new JsonArray().add(new JsonObject().put("name", "pay")
                .put("arguments", new JsonObject().put("amount", 2)))))));
    Await.until(() -> await(ratchet.pendingApprovals()).stream().anyMatch(a -> "later".equals(a.sessionId())), 10);

    // a restart: the new instance knows of the reply address only from the journal
    await(ratchet.close());
    ratchet = await(RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl(REDIS.url())
        .keyPrefix(REDIS.keyPrefix())));
    await(ratchet.register(AgentDefinition.builder("rules").toolSource(FunctionToolSource.create("rules")
        .tool(FunctionToolSource.define("pay", EffectClass.NON_IDEMPOTENT_WRITE).approval(ApprovalRule.always())
            .handler(inv -> Future.succeededFuture("paid")))).build()));
    Await.until(() -> await(ratchet.pendingApprovals()).stream().anyMatch(a -> "later".equals(a.sessionId())), 10);
    ApprovalRequest waiting = await(ratchet.pendingApprovals()).stream()
        .filter(a -> "later".equals(a.sessionId())).findFirst().orElseThrow();
    await(vertx.eventBus().request(Addresses.DECIDE, new JsonObject().put("sessionId", "later")
        .put("callId", waiting.callId().value()).put("argumentsHash", waiting.argumentsHash()).put("approved", true)
        .put("approver", "alice")));

    Await.until(() -> replies.size() == 1, 10);
    assertThat(replies.get(0).getString("status")).as(replies.get(0).encode()).isEqualTo("completed");
    assertThat(replies.get(0).getJsonObject("results").getJsonArray("results").getJsonObject(0).getString("outcome"))
        .isEqualTo("succeeded");
  }
}
