package dev.ratchet.runtime.agent;

import dev.ratchet.runtime.journal.JournalPorts;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.RetryPolicy;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.ToolPolicy;
import dev.ratchet.runtime.engine.EngineOptions;
import dev.ratchet.runtime.engine.SessionEngine;
import dev.ratchet.runtime.journal.InMemoryJournal;
import dev.ratchet.runtime.journal.SessionJournal;
import dev.ratchet.runtime.testing.Await;
import dev.ratchet.runtime.testing.OrderTools;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent loop's rules on the in-memory journal (whose contract SessionJournalContract checks on
 * Redis too): model responses journaled once, tool calls run as turns, answers delivered.
 */
class AgentLoopTest {

  private final Vertx vertx = Vertx.vertx();
  private final String session = "loop-" + UUID.randomUUID().toString().substring(0, 8);
  private final SessionJournal journal = InMemoryJournal.create(vertx);
  private final List<JsonObject> events = new CopyOnWriteArrayList<>();
  private final AtomicInteger lookups = new AtomicInteger();
  private final AtomicInteger cancels = new AtomicInteger();
  private SessionEngine engine;
  private AgentLoop loop;

  @AfterEach
  void close() {
    journal.close();
    await(vertx.close());
  }

  private FunctionToolSource tools() {
    return OrderTools.lookUpOrder(lookups).tool(OrderTools.approvedWrite("cancel_order", "Cancel", cancels,
        new JsonObject().put("status", "cancelled")));
  }

  /** Whether approvers may edit cancel_order's arguments (approval.allowEdit). */
  private boolean cancelEditable;

  private void start(ChatModel model, int maxTurns, RetryPolicy retry) {
    AgentDefinition.Builder builder = AgentDefinition.builder("shop-agent").toolSource(tools()).model(model)
        .maxTurns(maxTurns).modelRetry(retry).modelTimeout(Duration.ofSeconds(10)).systemPrompt("You help with orders.");
    if (cancelEditable) {
      builder.policy(ToolPolicy.requireApproval("cancel_order", true).allowingEdits());
    }
    AgentDefinition agent = builder.build();
    ToolCatalog catalog = await(ToolCatalog.resolve(vertx, agent));
    // like a session verticle: engine and loop on one context
    io.vertx.core.Context ctx = vertx.getOrCreateContext();
    io.vertx.core.Promise<Void> ready = io.vertx.core.Promise.promise();
    ctx.runOnContext(v -> {
      engine = new SessionEngine(vertx, journal, session, catalog, EngineOptions.DEFAULT, events::add);
      loop = new AgentLoop(vertx, journal, engine, agent, catalog, events::add);
      engine.start("node-" + UUID.randomUUID()).compose(x -> loop.start()).onComplete(ready);
    });
    await(ready.future());
  }

  private List<String> journaledTypes() {
    return await(JournalPorts.queries(journal).events(session, null,
        1000)).stream().map(e -> e.getString("type")).toList();
  }

  private static ToolCall call(String tool, String orderId, String id) {
    return new ToolCall(tool, new JsonObject().put("orderId", orderId), id);
  }

  @Test
  void toolCallsRunAsATurnAndTheirResultsGoBackToTheModelUntilItAnswers() {
    ScriptedModel model = ScriptedModel.of(
        ModelResponse.toolCalls(call("look_up_order", "1002", "c1")),
        ModelResponse.text("Order 1002 is open."));
    start(model, 5, RetryPolicy.NONE);

    AgentReply reply = await(await(loop.accept(null, "where is order 1002?")).result());

    assertThat(reply.status()).isEqualTo(AgentReply.ANSWERED);
    assertThat(reply.text()).isEqualTo("Order 1002 is open.");
    assertThat(lookups.get()).isEqualTo(1);
    assertThat(model.calls()).isEqualTo(2);
    List<ChatMessage> second = model.requests().get(1).messages();
    assertThat(second.get(0).role()).isEqualTo(ChatMessage.Role.SYSTEM);
    assertThat(second.get(1).text()).isEqualTo("where is order 1002?");
    assertThat(second.get(2).toolCalls()).extracting(ToolCall::modelCallId).containsExactly("c1");
    assertThat(second.get(3).role()).isEqualTo(ChatMessage.Role.TOOL);
    assertThat(second.get(3).toolCallId()).isEqualTo("c1");
    assertThat(new JsonObject(second.get(3).text()).getJsonObject("result").getString("status")).isEqualTo("open");
    assertThat(model.requests().get(0).tools()).extracting(ToolSpec::name)
        .containsExactly("look_up_order", "cancel_order");
    assertThat(journaledTypes()).containsSubsequence("message.user", "model.response", "turn.submitted",
        "turn.completed", "model.response", "message.assistant");
    assertThat(await(journal.turnResult(session, AgentLoop.turnId(1)))).isNotNull();
  }

  @Test
  void argumentsThatAreNotValidJsonFailTheCallSayingWhereAndTheModelSeesTheTextItWrote() {
    String broken = "{\"orderId\": \"1002\"";
    ScriptedModel model = ScriptedModel.of(
        ModelResponse.toolCalls(ToolCall.unparsable("look_up_order", broken, "c1")),
        ModelResponse.text("Sorry, let me try again."));
    start(model, 5, RetryPolicy.NONE);

    await(await(loop.accept(null, "where is order 1002?")).result());

    assertThat(lookups.get()).isZero();
    List<ChatMessage> second = model.requests().get(1).messages();
    assertThat(second.get(2).toolCalls().get(0).argumentsText()).isEqualTo(broken);
    String result = second.get(3).text();
    assertThat(result).contains("the arguments are not valid JSON").contains("line 1, column");
    JsonObject journaled = await(JournalPorts.queries(journal).events(session, null, 1000)).stream()
        .filter(e -> "model.response".equals(e.getString("type"))).findFirst().orElseThrow();
    assertThat(journaled.encode()).contains("\"rawArguments\":" + io.vertx.core.json.Json.encode(broken));
  }

  @Test
  void aResponseJournaledWithTheUnparsableTextInsideItsArgumentsReadsAsTheTextTheModelWrote() {
    JsonObject recorded = new JsonObject("""
        {"toolCalls":[{"name":"look_up_order","modelCallId":"c1","arguments":{"_unparsableArguments":"{\\"orderId\\":"}}]}""");

    ToolCall call = ModelResponse.fromJson(recorded).toolCalls().get(0);

    assertThat(call.argumentsText()).isEqualTo("{\"orderId\":");
    assertThat(call.argumentsProblem()).startsWith("the arguments are not valid JSON");
  }

  @Test
  void aRecordedModelResponseIsNeverRequestedAgainAfterARestartAndItsToolsRunOnce() {
    ScriptedModel first = ScriptedModel.of(ModelResponse.toolCalls(call("cancel_order", "1002", "c1")));
    start(first, 5, RetryPolicy.NONE);
    await(loop.accept("m1", "cancel order 1002"));
    Await.until(() -> !pending().isEmpty(), 10);
    assertThat(cancels.get()).isZero();
    // the node stops (as in a crash: nothing is answered) and another engine takes the session over
    await(loop.stop());
    await(engine.stop());
    events.clear();

    ScriptedModel second = ScriptedModel.from(request -> {
      assertThat(request.sinceLastUser()).extracting(ChatMessage::role)
          .containsExactly(ChatMessage.Role.ASSISTANT, ChatMessage.Role.TOOL);
      return ModelResponse.text("Order 1002 is cancelled.");
    });
    start(second, 5, RetryPolicy.NONE);
    assertThat(second.calls()).isZero();
    ApprovalRequest request = pending().get(0);
    await(engine.decide(ApprovalDecision.approve(request, "alice", "customer asked")));

    Await.until(() -> events.stream().anyMatch(e -> "message.assistant".equals(e.getString("type"))), 10);
    assertThat(cancels.get()).isEqualTo(1);
    assertThat(first.calls()).isEqualTo(1);
    assertThat(second.calls()).isEqualTo(1);
    // the same message id answers the same reply without asking the model again
    AgentReply again = await(await(loop.accept("m1", "cancel order 1002")).result());
    assertThat(again.text()).isEqualTo("Order 1002 is cancelled.");
    assertThat(second.calls()).isEqualTo(1);
    assertThat(journaledTypes().stream().filter("model.response"::equals).count()).isEqualTo(2);
  }

  @Test
  void theModelIsToldThatAPersonEditedTheArgumentsAndWhatTheCallRanWith() {
    cancelEditable = true;
    List<String> toolTexts = new CopyOnWriteArrayList<>();
    ScriptedModel model = ScriptedModel.from(request -> {
      if (request.sinceLastUser().isEmpty()) {
        return ModelResponse.toolCalls(call("cancel_order", "1002", "c1"));
      }
      request.sinceLastUser().stream().filter(m -> m.role() == ChatMessage.Role.TOOL).forEach(m -> toolTexts.add(m.text()));
      return ModelResponse.text("Done.");
    });
    start(model, 5, RetryPolicy.NONE);
    await(loop.accept("m1", "cancel order 1002"));
    Await.until(() -> !pending().isEmpty(), 10);
    await(engine.decide(ApprovalDecision.approveEdited(pending().get(0), new JsonObject().put("orderId", "1003"),
        "alice", "the customer meant 1003")));

    Await.until(() -> events.stream().anyMatch(e -> "message.assistant".equals(e.getString("type"))), 10);
    assertThat(toolTexts).hasSize(1);
    JsonObject told = new JsonObject(toolTexts.get(0));
    assertThat(told.getJsonObject("edited")).isEqualTo(new JsonObject().put("by", "alice")
        .put("reason", "the customer meant 1003").put("arguments", new JsonObject().put("orderId", "1003")));
    assertThat(told.getString("note")).contains("a person (alice) edited the arguments")
        .contains("{\"orderId\":\"1003\"}");
  }

  @Test
  void aModelThatKeepsFailingEndsTheRoundWithTheErrorAndTheNextMessageIsAnswered() {
    AtomicInteger attempts = new AtomicInteger();
    ScriptedModel model = ScriptedModel.from(request -> {
      if (attempts.incrementAndGet() <= 2) {
        throw new IllegalStateException("503 from the provider");
      }
      return "again".equals(request.lastUserText()) && request.sinceLastUser().isEmpty()
          ? ModelResponse.toolCalls(call("look_up_order", "1001", "c9"))
          : ModelResponse.text("done");
    });
    start(model, 5, new RetryPolicy(2, Duration.ofMillis(5), Duration.ofMillis(10), 2.0));

    AgentReply failed = await(await(loop.accept(null, "hello")).result());
    assertThat(failed.status()).isEqualTo(AgentReply.MODEL_FAILED);
    assertThat(failed.error()).contains("503 from the provider");
    assertThat(journaledTypes()).contains("model.attempt_failed", "model.failed");
    assertThat(loop.isIdle()).isTrue();

    AgentReply ok = await(await(loop.accept(null, "again")).result());
    assertThat(ok.text()).isEqualTo("done");
    assertThat(lookups.get()).isEqualTo(1);
    assertThat(attempts.get()).isEqualTo(4);
  }

  @Test
  void theTurnLimitEndsARoundOfAModelThatNeverStopsCallingTools() {
    AtomicInteger n = new AtomicInteger();
    ScriptedModel model = ScriptedModel.from(r -> ModelResponse.toolCalls(
        call("look_up_order", "100" + n.incrementAndGet(), null)));
    start(model, 2, RetryPolicy.NONE);

    AgentReply reply = await(await(loop.accept(null, "loop forever")).result());

    assertThat(reply.status()).isEqualTo(AgentReply.TURN_LIMIT);
    assertThat(model.calls()).isEqualTo(2);
    assertThat(lookups.get()).isEqualTo(2);
    // calls without a provider id get one derived from the step, so results pair with them
    assertThat(model.requests().get(1).messages().get(3).toolCallId()).isEqualTo("call_1_0");
  }

  private List<ApprovalRequest> pending() {
    return await(JournalPorts.queries(journal).pendingApprovals(100)).stream().filter(r -> r.sessionId().equals(session)).toList();
  }
}
