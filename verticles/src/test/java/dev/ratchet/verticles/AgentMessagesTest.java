package dev.ratchet.verticles;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.agent.AgentReply;
import dev.ratchet.runtime.agent.ModelResponse;
import dev.ratchet.runtime.agent.ScriptedModel;
import dev.ratchet.runtime.testing.Await;
import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.verticles.testing.NodeFixture;
import io.vertx.core.Future;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/** User messages through the Java API and the event bus, answered by the agent loop of a session verticle. */
class AgentMessagesTest extends NodeFixture {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private final AtomicInteger lookups = new AtomicInteger();
  private ScriptedModel model;

  @BeforeEach
  void start() {
    FunctionToolSource tools = FunctionToolSource.create("shop").read("look_up_order", "Look up an order",
        new JsonObject("{\"type\":\"object\",\"properties\":{\"orderId\":{\"type\":\"string\"}},\"required\":[\"orderId\"]}"),
        inv -> {
          lookups.incrementAndGet();
          return Future.succeededFuture(new JsonObject().put("status", "open"));
        });
    model = ScriptedModel.from(r -> r.sinceLastUser().isEmpty()
        ? ModelResponse.toolCalls(new ToolCall("look_up_order", new JsonObject().put("orderId", "1002"), "c1"))
        : ModelResponse.text("It is open."));
    await(ratchet.register(AgentDefinition.builder("chat").toolSource(tools).model(model).build()));
    await(ratchet.register(AgentDefinition.builder("no-model").toolSource(FunctionToolSource.create("none")).build()));
  }

  @Test
  void sendAnswersWithTheModelsFinalAnswerAndTheConversationShowsEveryStep() {
    String session = "java-" + UUID.randomUUID();
    AgentReply reply = await(ratchet.send("chat", session, "is 1002 open?"));
    assertThat(reply.status()).isEqualTo("answered");
    assertThat(reply.text()).isEqualTo("It is open.");
    assertThat(lookups.get()).isEqualTo(1);

    JsonArray messages = await(ratchet.queries().conversation(session)).getJsonArray("messages");
    assertThat(messages.stream().map(m -> ((JsonObject) m).getString("role")).toList())
        .containsExactly("user", "assistant", "assistant", "assistant");
    assertThat(messages.getJsonObject(1).getJsonArray("results").getJsonObject(0).getString("outcome"))
        .isEqualTo("succeeded");
    assertThat(messages.getJsonObject(3).getString("text")).isEqualTo("It is open.");
  }

  @Test
  void theEventBusAcknowledgesOnceJournaledAndSendsTheAnswerToTheReplyAddress() {
    String session = "bus-" + UUID.randomUUID();
    List<JsonObject> answers = new CopyOnWriteArrayList<>();
    List<String> events = new CopyOnWriteArrayList<>();
    await(vertx.eventBus().<JsonObject>consumer("test.answers", m -> answers.add(m.body())).completion());
    await(StepEvents.consumer(vertx, session, m -> events.add(m.body().getString("type"))).completion());

    JsonObject ack = await(vertx.eventBus().<JsonObject>request(Addresses.MESSAGES_SEND, new JsonObject()
        .put("agent", "chat").put("sessionId", session).put("text", "is 1002 open?").put("messageId", "m-1")
        .put("replyAddress", "test.answers"))).body();
    assertThat(ack.getString("status")).isEqualTo("accepted");

    Await.until(() -> !answers.isEmpty(), 10);
    assertThat(answers.get(0).getString("status")).isEqualTo("answered");
    assertThat(answers.get(0).getJsonObject("reply").getString("text")).isEqualTo("It is open.");
    Await.until(() -> events.contains("message.assistant"), 10);
    assertThat(events).containsSubsequence("message.user", "model.response", "turn.completed", "model.response",
        "message.assistant");

    // the same message id again: answered from the journal, the model is not asked again
    int calls = model.calls();
    JsonObject again = await(vertx.eventBus().<JsonObject>request(Addresses.MESSAGES_SEND, new JsonObject()
        .put("agent", "chat").put("sessionId", session).put("text", "is 1002 open?").put("messageId", "m-1"))).body();
    assertThat(again.getString("status")).isEqualTo("answered");
    assertThat(model.calls()).isEqualTo(calls);

    JsonObject conversation = await(vertx.eventBus().<JsonObject>request(Addresses.CONVERSATION,
        new JsonObject().put("sessionId", session))).body();
    assertThat(conversation.getJsonArray("messages")).hasSize(4);
  }

  @Test
  void anAgentWithoutAModelOrAMissingTextIsRefusedWithACode() {
    Throwable noModel = Await.failure(vertx.eventBus().request(Addresses.MESSAGES_SEND, new JsonObject()
        .put("agent", "no-model").put("sessionId", "s-" + UUID.randomUUID()).put("text", "hello")));
    assertThat(((ReplyException) noModel).failureCode()).isEqualTo(409);
    assertThat(noModel.getMessage()).startsWith("NO_MODEL");
    Throwable noText = Await.failure(vertx.eventBus().request(Addresses.MESSAGES_SEND, new JsonObject()
        .put("agent", "chat").put("sessionId", "s-1")));
    assertThat(((ReplyException) noText).failureCode()).isEqualTo(400);
  }
}
