package dev.ratchet.springai;

import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallId;
import dev.ratchet.turns.testing.Shop;
import dev.ratchet.turns.testing.TestShop;
import dev.ratchet.turns.testing.ToolCallingModel;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.ai.openai.api.OpenAiApi;
import org.springframework.ai.tool.ToolCallback;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Spring AI's OpenAI chat model against a local chat-completions server, its tool calls run by Ratchet. */
class RatchetToolCallingManagerTest {

  @RegisterExtension
  static final ToolCallingModel MODEL = new ToolCallingModel();

  @RegisterExtension
  static final TestShop SHOP = new TestShop("spring-test");

  private static OpenAiChatModel chatModel;
  private final String session = TestShop.newSession("spring");

  @BeforeAll
  static void start() {
    chatModel = OpenAiChatModel.builder()
        .openAiApi(OpenAiApi.builder().baseUrl(MODEL.baseUrl().replace("/v1", "")).apiKey("sk-test").build())
        .defaultOptions(OpenAiChatOptions.builder().model("gpt-test").build())
        .toolCallingManager(new RatchetToolCallingManager(SHOP.shop().turns("tenant-1")))
        .build();
  }

  private String ask(String text) {
    ChatResponse response = chatModel.call(new Prompt(text, OpenAiChatOptions.builder()
        .toolContext(Map.of(RatchetToolCallingManager.SESSION_KEY, session)).build()));
    return response.getResult().getOutput().getText();
  }

  @Test
  void theToolCallsOfOneChatResponseRunAsOneTurnAndAnApprovedWriteRunsOnce() throws Exception {
    MODEL.respond("chatcmpl-sp-1", "call_look", "look_up_order", "{\"orderId\":\"D-1\"}",
        "call_refund", "refund_order", "{\"orderId\":\"D-1\",\"amountCents\":25000}");
    int asked = MODEL.requests().size();

    CompletableFuture<String> answer = CompletableFuture.supplyAsync(() -> ask("refund all of D-1"));
    ApprovalRequest request = SHOP.shop().awaitApproval(session, "refund_order", 20);
    assertThat(request.callId()).isEqualTo(CallId.of(session, "chatcmpl-sp-1", 1));
    SHOP.shop().approve(request, "ana", "customer verified");

    assertThat(answer.get(30, TimeUnit.SECONDS)).startsWith("The shop said: ").contains("succeeded");
    assertThat(SHOP.provider().effects("refund_order", "D-1")).isEqualTo(1);
    JsonArray second = MODEL.requests().get(asked + 1).getJsonArray("messages");
    assertThat(second.getJsonObject(second.size() - 2).getString("tool_call_id")).isEqualTo("call_look");
    assertThat(second.getJsonObject(second.size() - 2).getString("content")).contains("delivered");
    JsonObject refund = MODEL.requests().get(asked).getJsonArray("tools").getJsonObject(1).getJsonObject("function");
    assertThat(refund.getString("name")).isEqualTo("refund_order");
    assertThat(refund.getJsonObject("parameters")).isEqualTo(Shop.REFUND_SCHEMA);
  }

  @Test
  void aRejectionReachesTheModelWithTheApproversReasonAndNothingIsSent() throws Exception {
    MODEL.respond("chatcmpl-sp-2", "call_mail", "email_customer", "{\"orderId\":\"D-2\",\"text\":\"Sorry!\"}");

    CompletableFuture<String> answer = CompletableFuture.supplyAsync(() -> ask("apologise for D-2"));
    SHOP.shop().reject(SHOP.shop().awaitApproval(session, "email_customer", 20), "ana", "this customer asked not to be e-mailed");

    assertThat(answer.get(30, TimeUnit.SECONDS)).contains("failed").contains("this customer asked not to be e-mailed");
    assertThat(SHOP.provider().effects("email_customer", "D-2")).isZero();
  }

  @Test
  void theSameResponseAgainSendsNoWriteTwice() {
    MODEL.respond("chatcmpl-sp-3", "call_a", "refund_order", "{\"orderId\":\"D-3\",\"amountCents\":900}",
        "call_b", "refund_order", "{\"orderId\":\"D-4\",\"amountCents\":800}");

    assertThat(ask("refund D-3 and D-4")).isEqualTo(ask("refund D-3 and D-4"));
    assertThat(SHOP.provider().effects("refund_order", "D-3") + SHOP.provider().effects("refund_order", "D-4")).isEqualTo(2);
  }

  @Test
  void aPromptWithoutASessionIsRefusedWithWhatToAddAndNothingRuns() {
    MODEL.respond("chatcmpl-sp-4", "call_a", "refund_order", "{\"orderId\":\"D-5\",\"amountCents\":900}");
    assertThatThrownBy(() -> chatModel.call(new Prompt("refund D-5", OpenAiChatOptions.builder().build())))
        .hasMessageContaining("tool context under 'ratchet.session'");
    assertThat(SHOP.provider().effects("refund_order", "D-5")).isZero();
  }

  @Test
  void theCallbacksOfferTheCatalogueAndRunACallInTheSessionOfTheToolContext() {
    ToolCallback[] callbacks = new RatchetToolCallbacks(SHOP.shop().turns("tenant-1")).getToolCallbacks();
    assertThat(callbacks).extracting(c -> c.getToolDefinition().name())
        .containsExactly("look_up_order", "refund_order", "email_customer");
    assertThat(new JsonObject(callbacks[1].getToolDefinition().inputSchema())).isEqualTo(Shop.REFUND_SCHEMA);

    String result = callbacks[0].call("{\"orderId\":\"D-6\"}",
        new ToolContext(Map.of(RatchetToolCallingManager.SESSION_KEY, session)));
    assertThat(new JsonObject(result).getJsonObject("result").getString("status")).isEqualTo("delivered");
  }

  @Test
  void theDocumentedChatClientRunsTheToolsThroughRatchet() {
    MODEL.respond("chatcmpl-sp-5", "call_look", "look_up_order", "{\"orderId\":\"D-7\"}");
    assertThat(SpringAiExample.answer(chatModel, session, "where is D-7?")).startsWith("The shop said: ")
        .contains("delivered");
  }
}
