package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.IdempotencyKey;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.journal.DecisionAnswer;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.runtime.testing.Await;
import dev.ratchet.runtime.testing.Recorder;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.UUID;
import java.util.function.Function;

import static dev.ratchet.runtime.testing.Await.await;
import static dev.ratchet.runtime.testing.Await.failure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Edit, then approve, on Redis: an approver's edited arguments are validated against the tool's
 * schema, journaled with the decision, and are what the call runs with, its idempotency key included,
 * also when another node resumes the call after a crash.
 */
class EditedApprovalTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private static final JsonObject SCHEMA = new JsonObject().put("type", "object")
      .put("properties", new JsonObject().put("orderId", new JsonObject().put("type", "string"))
          .put("amount", new JsonObject().put("type", "number").put("maximum", 1000)))
      .put("required", new io.vertx.core.json.JsonArray().add("orderId").add("amount"))
      .put("additionalProperties", false);

  @RegisterExtension
  final RedisNodes runtimes = new RedisNodes(REDIS);

  private String sessionId;
  private Recorder provider;

  @BeforeEach
  void setUp() {
    sessionId = "s-" + UUID.randomUUID();
    provider = new Recorder();
  }

  private record Node(Vertx vertx, RedisJournal journal, ToolCatalog catalog, SessionEngine engine) {
  }

  private Node node(String name, boolean allowEdit, Function<ToolInvocation, Future<Object>> answer) {
    RedisNodes.Node runtime = runtimes.open();
    AgentDefinition agent = AgentDefinition.builder("test-agent")
        .toolSource(FunctionToolSource.create("t").tool(FunctionToolSource.define("refund", EffectClass.IDEMPOTENT_WRITE)
            .schema(SCHEMA).approval(ApprovalRule.always().withEdit(allowEdit)).handler(inv -> {
              provider.record("refund", inv);
              return answer.apply(inv);
            }))).build();
    SessionEngine engine = runtime.engine(sessionId, name, agent, null);
    return new Node(runtime.vertx(), runtime.journal(), engine.catalog(), engine);
  }

  private static Future<Object> ok(ToolInvocation inv) {
    return Future.succeededFuture(new JsonObject().put("refunded", inv.arguments().getValue("amount")));
  }

  private static Future<Object> never(ToolInvocation inv) {
    return Promise.promise().future();
  }

  private ApprovalRequest pending(RedisJournal journal) {
    Await.until(() -> !await(journal.queries().pendingApprovals(1000)).stream()
        .filter(r -> r.sessionId().equals(sessionId)).toList().isEmpty(), 10);
    return await(journal.queries().pendingApprovals(1000)).stream().filter(r -> r.sessionId().equals(sessionId))
        .findFirst().orElseThrow();
  }

  private static Turn refund(double amount) {
    return Turn.of("t1", new ToolCall("refund", new JsonObject().put("orderId", "o-1").put("amount", amount)));
  }

  @Test
  void anEditedApprovalRunsTheCallWithTheEditedArgumentsAndSaysWhoEditedThemAndWhy() {
    Node n = node("node-1", true, EditedApprovalTest::ok);
    Future<TurnResult> result = n.engine.submit(refund(900));
    ApprovalRequest request = pending(n.journal);
    JsonObject edited = new JsonObject().put("orderId", "o-1").put("amount", 90);

    assertThat(await(n.engine.decide(ApprovalDecision.approveEdited(request, edited, "alice", "refund is capped"))))
        .isEqualTo(DecisionAnswer.ACCEPTED);
    CallResult r = await(result).call(0);

    assertThat(r.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(provider.invocations).hasSize(1);
    assertThat(provider.invocations.get(0).arguments()).isEqualTo(edited);
    assertThat(provider.invocations.get(0).idempotencyKey())
        .as("the key derives from the arguments that are sent").isEqualTo(IdempotencyKey.of(r.callId(), edited));
    assertThat(r.toJson().getJsonObject("edited")).isEqualTo(new JsonObject().put("by", "alice")
        .put("reason", "refund is capped").put("arguments", edited));
    assertThat(r.approval().originalArgumentsHash()).isEqualTo(request.argumentsHash());
    assertThat(await(n.journal.turnResult(sessionId, "t1")).call(0).approval().editedArguments()).isEqualTo(edited);
  }

  @Test
  void anEditTheToolsSchemaRefusesIsRefusedNamingTheFieldAndChangesNothing() {
    Node n = node("node-1", true, EditedApprovalTest::ok);
    Future<TurnResult> result = n.engine.submit(refund(900));
    ApprovalRequest request = pending(n.journal);

    Throwable err = failure(n.engine.decide(ApprovalDecision.approveEdited(request,
        new JsonObject().put("orderId", "o-1").put("amount", 5000), "alice", "too much")));
    assertThat(((RatchetException) err).code()).isEqualTo("INVALID_REQUEST");
    assertThat(err.getMessage()).contains("amount");
    assertThat(await(n.journal.callState(sessionId, request.callId())).approval().status()).isEqualTo("pending");
    assertThat(pending(n.journal).callId()).isEqualTo(request.callId());
    assertThat(result.isComplete()).isFalse();
    assertThat(provider.invocations).isEmpty();

    assertThat(await(n.engine.decide(ApprovalDecision.approve(request, "alice", null))))
        .as("the request can still be decided").isEqualTo(DecisionAnswer.ACCEPTED);
    assertThat(await(result).call(0).approval().edited()).isFalse();
    assertThat(provider.invocations.get(0).arguments().getDouble("amount")).isEqualTo(900.0);
  }

  @Test
  void aToolThatDoesNotAllowEditsRefusesAnEditedDecisionAsForbidden() {
    Node n = node("node-1", false, EditedApprovalTest::ok);
    Future<TurnResult> result = n.engine.submit(refund(900));
    ApprovalRequest request = pending(n.journal);

    Throwable err = failure(SessionEngine.journalDecision(n.journal, a -> n.catalog, ApprovalDecision.approveEdited(
        request, new JsonObject().put("orderId", "o-1").put("amount", 90), "alice", null)));
    assertThat(((RatchetException) err).code()).isEqualTo("FORBIDDEN");
    assertThat(err.getMessage()).contains("allowEdit");
    assertThat(await(n.journal.callState(sessionId, request.callId())).approval().status()).isEqualTo("pending");
    assertThat(result.isComplete()).isFalse();
  }

  @Test
  void aCallApprovedWithEditsWhileItsNodeWasDownRunsWithTheEditedArgumentsOnTheNextNode() {
    Node first = node("node-1", true, EditedApprovalTest::ok);
    first.engine.submit(refund(900));
    ApprovalRequest request = pending(first.journal);
    first.vertx.close();

    // any node may decide: here one that does not run the session
    Node decider = node("decider", true, EditedApprovalTest::ok);
    JsonObject edited = new JsonObject().put("orderId", "o-1").put("amount", 45.5);
    assertThat(await(SessionEngine.journalDecision(decider.journal, a -> decider.catalog,
        ApprovalDecision.approveEdited(request, edited, "bob", "half")))).isEqualTo(DecisionAnswer.ACCEPTED);

    Node second = node("node-2", true, EditedApprovalTest::ok);
    CallResult r = await(second.engine.submit(refund(900))).call(0);
    assertThat(r.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(r.result()).isEqualTo(new JsonObject().put("refunded", 45.5));
    assertThat(provider.invocations).hasSize(1);
    assertThat(provider.invocations.get(0).arguments()).isEqualTo(edited);
    assertThat(r.toJson().getJsonObject("edited").getString("by")).isEqualTo("bob");
  }

  @Test
  void aWriteInFlightWithEditedArgumentsAtACrashIsResentWithTheEditedArgumentsAndTheirKey() {
    Node first = node("node-1", true, EditedApprovalTest::never);
    first.engine.submit(refund(900));
    ApprovalRequest request = pending(first.journal);
    JsonObject edited = new JsonObject().put("orderId", "o-1").put("amount", 10);
    await(first.engine.decide(ApprovalDecision.approveEdited(request, edited, "alice", "ten")));
    Await.until(() -> provider.count("refund") == 1, 10);
    IdempotencyKey key = provider.invocations.get(0).idempotencyKey();
    first.vertx.close();

    Node second = node("node-2", true, EditedApprovalTest::ok);
    CallResult r = await(second.engine.submit(refund(900))).call(0);
    assertThat(r.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(provider.invocations).hasSize(2);
    assertThat(provider.invocations.get(1).arguments()).isEqualTo(edited);
    assertThat(provider.invocations.get(1).idempotencyKey()).isEqualTo(key)
        .isEqualTo(IdempotencyKey.of(request.callId(), edited));
  }
}
