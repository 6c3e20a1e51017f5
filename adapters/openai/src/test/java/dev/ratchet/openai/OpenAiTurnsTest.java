package dev.ratchet.openai;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionToolMessageParam;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.testing.FakeOpenAiServer;
import dev.ratchet.turns.testing.Shop;
import dev.ratchet.turns.testing.TestShop;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The OpenAI Java SDK's own client and types against a local chat-completions server, with a real Ratchet. */
class OpenAiTurnsTest {

  @RegisterExtension
  static final TestShop SHOP = new TestShop("openai-test");

  private static FakeOpenAiServer model;
  private static OpenAIClient client;
  private static OpenAiTurns turns;
  private final String session = TestShop.newSession("openai");

  @BeforeAll
  static void start() {
    model = new FakeOpenAiServer(body -> FakeOpenAiServer.text("nothing to do"));
    client = OpenAIOkHttpClient.builder().baseUrl(model.baseUrl()).apiKey("sk-test").maxRetries(0).build();
    SHOP.onClose(model::close);
    SHOP.onClose(client::close);
    turns = new OpenAiTurns(SHOP.shop().turns("tenant-1"));
  }

  private ChatCompletion ask(String text) {
    ChatCompletionCreateParams.Builder params = ChatCompletionCreateParams.builder().model("gpt-test").addUserMessage(text);
    turns.tools().forEach(params::addTool);
    return client.chat().completions().create(params.build());
  }

  /** Runs the tool calls of the model's answer to {@code text} while the test acts as the approver. */
  private CompletableFuture<List<ChatCompletionToolMessageParam>> runInBackground(String text) {
    ChatCompletion completion = ask(text);
    return CompletableFuture.supplyAsync(() -> turns.run(session, completion));
  }

  private static JsonObject firstResult(CompletableFuture<List<ChatCompletionToolMessageParam>> running)
      throws Exception {
    return new JsonObject(running.get(20, TimeUnit.SECONDS).get(0).content().asText());
  }

  private static JsonObject completion(String id, String... idNameArgs) {
    return FakeOpenAiServer.toolCalls(idNameArgs).put("id", id);
  }

  @Test
  void theToolCallsOfACompletionRunAsOneTurnAndComeBackAsToolMessages() {
    model.script(body -> completion("chatcmpl-1", "call_look", "look_up_order", "{\"orderId\":\"A-1\"}",
        "call_refund", "refund_order", "{\"orderId\":\"A-1\",\"amountCents\":2500}"));
    int asked = model.requests().size();
    ChatCompletion completion = ask("refund 25.00 of order A-1");

    List<ChatCompletionToolMessageParam> results = turns.run(session, completion);

    assertThat(results).extracting(ChatCompletionToolMessageParam::toolCallId).containsExactly("call_look", "call_refund");
    assertThat(new JsonObject(results.get(0).content().asText()).getJsonObject("result").getString("status"))
        .isEqualTo("delivered");
    assertThat(new JsonObject(results.get(1).content().asText()).getString("outcome")).isEqualTo("succeeded");
    assertThat(SHOP.provider().effects("refund_order", "A-1")).isEqualTo(1);
    JsonArray tools = model.requests().get(asked).getJsonArray("tools");
    assertThat(tools.getJsonObject(1).getJsonObject("function").getString("name")).isEqualTo("refund_order");
    assertThat(tools.getJsonObject(1).getJsonObject("function").getJsonObject("parameters")).isEqualTo(Shop.REFUND_SCHEMA);

    // the application's loop sends the results back: the model reads them as tool messages
    model.script(body -> FakeOpenAiServer.text("Refunded 25.00."));
    ChatCompletionCreateParams.Builder next = ChatCompletionCreateParams.builder().model("gpt-test")
        .addUserMessage("refund 25.00 of order A-1").addMessage(completion.choices().get(0).message());
    results.forEach(next::addMessage);
    assertThat(client.chat().completions().create(next.build()).choices().get(0).message().content()).hasValue("Refunded 25.00.");
    JsonArray sent = model.requests().get(asked + 1).getJsonArray("messages");
    assertThat(sent.getJsonObject(3).getString("role")).isEqualTo("tool");
    assertThat(sent.getJsonObject(3).getString("tool_call_id")).isEqualTo("call_refund");
  }

  @Test
  void aWriteThatNeedsApprovalRunsOnceAPersonApprovesIt() throws Exception {
    model.script(body -> completion("chatcmpl-2", "call_big", "refund_order", "{\"orderId\":\"A-2\",\"amountCents\":25000}"));
    CompletableFuture<List<ChatCompletionToolMessageParam>> running = runInBackground("refund all of order A-2");
    ApprovalRequest request = SHOP.shop().awaitApproval(session, "refund_order", 20);
    assertThat(request.turnId()).isEqualTo("chatcmpl-2");
    assertThat(SHOP.provider().effects("refund_order", "A-2")).isZero();
    SHOP.shop().approve(request, "ana", "customer verified");

    JsonObject result = firstResult(running);
    assertThat(result.getString("outcome")).isEqualTo("succeeded");
    assertThat(SHOP.provider().effects("refund_order", "A-2")).isEqualTo(1);
  }

  @Test
  void aRejectionReachesTheModelWithTheApproversReasonAndNothingIsSent() throws Exception {
    model.script(body -> completion("chatcmpl-3", "call_mail", "email_customer", "{\"orderId\":\"A-3\",\"text\":\"Sorry!\"}"));
    CompletableFuture<List<ChatCompletionToolMessageParam>> running = runInBackground("apologise to the customer of A-3");
    SHOP.shop().reject(SHOP.shop().awaitApproval(session, "email_customer", 20), "ana", "this customer asked not to be e-mailed");

    JsonObject result = firstResult(running);
    assertThat(result.getString("outcome")).isEqualTo("failed");
    assertThat(result.getString("error")).contains("refused").contains("this customer asked not to be e-mailed");
    assertThat(SHOP.provider().effects("email_customer", "A-3")).isZero();
  }

  @Test
  void runningTheSameCompletionAgainAnswersTheSameResultsAndSendsNoWriteTwice() {
    model.script(body -> completion("chatcmpl-4", "call_refund", "refund_order", "{\"orderId\":\"A-4\",\"amountCents\":900}"));
    ChatCompletion completion = ask("refund 9.00 of order A-4");

    String first = turns.run(session, completion).get(0).content().asText();
    String again = turns.run(session, completion).get(0).content().asText();

    assertThat(again).isEqualTo(first);
    assertThat(SHOP.provider().effects("refund_order", "A-4")).isEqualTo(1);
  }

  @Test
  void theDocumentedLoopRunsTheToolsAndReturnsTheModelsAnswer() {
    model.script(body -> {
      JsonArray messages = body.getJsonArray("messages");
      JsonObject last = messages.getJsonObject(messages.size() - 1);
      return "tool".equals(last.getString("role")) ? FakeOpenAiServer.text("Done: " + last.getString("content"))
          : completion("chatcmpl-5", "call_look", "look_up_order", "{\"orderId\":\"A-5\"}");
    });
    assertThat(OpenAiExample.answer(client, SHOP.shop().ratchet(), session, "where is A-5?")).startsWith("Done: ")
        .contains("delivered");
  }
}
