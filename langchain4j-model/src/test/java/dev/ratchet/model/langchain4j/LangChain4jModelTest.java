package dev.ratchet.model.langchain4j;

import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.agent.ChatMessage;
import dev.ratchet.runtime.agent.ModelRequest;
import dev.ratchet.runtime.agent.ModelResponse;
import dev.ratchet.runtime.agent.ToolSpec;
import dev.ratchet.runtime.testing.FakeOpenAiServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static dev.ratchet.runtime.testing.Await.await;
import static dev.ratchet.runtime.testing.Await.failure;
import static org.assertj.core.api.Assertions.assertThat;

/** LangChain4j's own OpenAI client against a local server that speaks the chat completions protocol. */
class LangChain4jModelTest {

  private final Vertx vertx = Vertx.vertx();
  private final FakeOpenAiServer server = new FakeOpenAiServer(body -> FakeOpenAiServer.toolCalls(
      "call_abc", "look_up_order", "{\"orderId\":\"1002\"}",
      "call_def", "refund_order", "{\"orderId\":\"1002\",\"amount\":25.5}"));
  private final LangChain4jModel model = LangChain4jModel.openAi(vertx, "gpt-4.1-mini", "sk-test", server.baseUrl(),
      Duration.ofSeconds(10));

  @AfterEach
  void close() {
    server.close();
    await(vertx.close());
  }

  private static final JsonObject ORDER_SCHEMA = new JsonObject("""
      {"type":"object","properties":{"orderId":{"type":"string","description":"the order number","pattern":"^[0-9]+$"},
       "amount":{"type":"number","exclusiveMinimum":0},"reason":{"type":"string","enum":["damaged","late"]},
       "tags":{"type":"array","items":{"type":"string"}}},
       "required":["orderId"],"additionalProperties":false}""");

  @Test
  void toolCallsOfTheModelComeBackWithTheirIdsAndParsedArguments() {
    ModelResponse response = await(model.chat(new ModelRequest(
        List.of(ChatMessage.system("You help with orders."), ChatMessage.user("refund 25.50 of order 1002")),
        List.of(new ToolSpec("look_up_order", "Look up an order", ORDER_SCHEMA),
            new ToolSpec("refund_order", "Refund an order", ORDER_SCHEMA)))));

    assertThat(response.toolCalls()).containsExactly(
        new ToolCall("look_up_order", new JsonObject().put("orderId", "1002"), "call_abc"),
        new ToolCall("refund_order", new JsonObject().put("orderId", "1002").put("amount", 25.5), "call_def"));

    JsonObject sent = server.requests().get(0);
    assertThat(sent.getString("model")).isEqualTo("gpt-4.1-mini");
    JsonArray messages = sent.getJsonArray("messages");
    assertThat(messages.getJsonObject(0).getString("role")).isEqualTo("system");
    assertThat(messages.getJsonObject(1).getString("content")).isEqualTo("refund 25.50 of order 1002");
    JsonObject tool = sent.getJsonArray("tools").getJsonObject(0);
    assertThat(tool.getString("type")).isEqualTo("function");
    JsonObject function = tool.getJsonObject("function");
    assertThat(function.getString("name")).isEqualTo("look_up_order");
    assertThat(function.getString("description")).isEqualTo("Look up an order");
    JsonObject params = function.getJsonObject("parameters");
    assertThat(params.getJsonArray("required")).containsExactly("orderId");
    assertThat(params.getJsonObject("properties").getJsonObject("orderId").getString("description"))
        .isEqualTo("the order number");
    assertThat(params.getJsonObject("properties").getJsonObject("reason").getJsonArray("enum"))
        .containsExactly("damaged", "late");
    assertThat(params.getJsonObject("properties").getJsonObject("tags").getJsonObject("items").getString("type"))
        .isEqualTo("string");
  }

  @Test
  void theModelSeesTheToolsSchemaAsTheCatalogueShowsIt() {
    JsonObject nested = new JsonObject("""
        {"type":"object","properties":{"address":{"type":"object","properties":{"zip":{"type":"string",
         "pattern":"^[0-9]{5}$"}},"additionalProperties":false},"count":{"type":"integer","exclusiveMinimum":0,
         "maximum":10},"sender":{"$ref":"#/$defs/party"}},"required":["address"],"additionalProperties":false,
         "$defs":{"party":{"type":"object","properties":{"name":{"type":"string","minLength":1}}}}}""");
    await(model.chat(new ModelRequest(List.of(ChatMessage.user("refund order 1002")),
        List.of(new ToolSpec("refund_order", "Refund an order", ORDER_SCHEMA),
            new ToolSpec("ship", "Ship something", nested)))));

    JsonArray tools = server.requests().get(0).getJsonArray("tools");
    assertThat(tools.getJsonObject(0).getJsonObject("function").getJsonObject("parameters")).isEqualTo(ORDER_SCHEMA);
    assertThat(tools.getJsonObject(1).getJsonObject("function").getJsonObject("parameters")).isEqualTo(nested);
  }

  @Test
  void aModelBuiltByTheApplicationWithRatchetsHttpClientSeesTheTopLevelAdditionalProperties() {
    LangChain4jModel own = LangChain4jModel.of(vertx, dev.langchain4j.model.openai.OpenAiChatModel.builder()
        .baseUrl(server.baseUrl()).apiKey("sk-test").modelName("gpt-4.1-mini").maxRetries(0)
        .httpClientBuilder(LangChain4jModel.httpClientBuilder()).build());
    await(own.chat(new ModelRequest(List.of(ChatMessage.user("refund order 1002")),
        List.of(new ToolSpec("refund_order", "Refund an order", ORDER_SCHEMA)))));

    JsonObject params = server.requests().get(0).getJsonArray("tools").getJsonObject(0).getJsonObject("function")
        .getJsonObject("parameters");
    assertThat(params.getValue("additionalProperties")).isEqualTo(false);
    assertThat(params).isEqualTo(ORDER_SCHEMA);
  }

  @Test
  void argumentsThatAreNotValidJsonGoBackToTheModelAsItWroteThem() {
    String broken = "{\"orderId\": \"1002\", \"amount\": 25.5";
    server.script(body -> FakeOpenAiServer.toolCalls("call_abc", "refund_order", broken));
    ModelResponse response = await(model.chat(new ModelRequest(List.of(ChatMessage.user("refund order 1002")),
        List.of(new ToolSpec("refund_order", "Refund an order", ORDER_SCHEMA)))));
    assertThat(response.toolCalls().get(0).arguments().fieldNames()).isEmpty();

    await(model.chat(new ModelRequest(List.of(ChatMessage.user("refund order 1002"),
        ChatMessage.assistant(null, response.toolCalls()),
        ChatMessage.toolResult("call_abc", "refund_order", "{\"outcome\":\"failed\"}")),
        List.of(new ToolSpec("refund_order", "Refund an order", ORDER_SCHEMA)))));
    JsonObject sentCall = server.requests().get(1).getJsonArray("messages").getJsonObject(1)
        .getJsonArray("tool_calls").getJsonObject(0);
    assertThat(sentCall.getJsonObject("function").getString("arguments")).isEqualTo(broken);
  }

  @Test
  void toolResultsGoBackAsToolMessagesPairedByCallIdAndATextAnswerEndsTheTurn() {
    server.script(body -> FakeOpenAiServer.text("Order 1002 was refunded 25.50."));
    ToolCall call = new ToolCall("look_up_order", new JsonObject().put("orderId", "1002"), "call_abc");
    ModelResponse response = await(model.chat(new ModelRequest(List.of(
        ChatMessage.user("where is 1002?"),
        ChatMessage.assistant(null, List.of(call)),
        ChatMessage.toolResult("call_abc", "look_up_order", "{\"outcome\":\"succeeded\",\"result\":{\"status\":\"open\"}}")),
        List.of(new ToolSpec("look_up_order", "Look up an order", ORDER_SCHEMA)))));

    assertThat(response.hasToolCalls()).isFalse();
    assertThat(response.text()).isEqualTo("Order 1002 was refunded 25.50.");
    JsonArray messages = server.requests().get(0).getJsonArray("messages");
    JsonObject assistant = messages.getJsonObject(1);
    assertThat(assistant.getString("role")).isEqualTo("assistant");
    JsonObject sentCall = assistant.getJsonArray("tool_calls").getJsonObject(0);
    assertThat(sentCall.getString("id")).isEqualTo("call_abc");
    assertThat(new JsonObject(sentCall.getJsonObject("function").getString("arguments")))
        .isEqualTo(new JsonObject().put("orderId", "1002"));
    JsonObject result = messages.getJsonObject(2);
    assertThat(result.getString("role")).isEqualTo("tool");
    assertThat(result.getString("tool_call_id")).isEqualTo("call_abc");
    assertThat(result.getString("content")).contains("\"status\":\"open\"");
  }

  @Test
  void aServerErrorFailsTheRequestOnceSoThatTheLoopsRetryPolicyDecides() {
    server.failWith(503);
    Throwable err = failure(model.chat(new ModelRequest(List.of(ChatMessage.user("hi")), List.of())));
    assertThat(err).isNotNull();
    assertThat(server.requests()).hasSize(1);
  }
}
