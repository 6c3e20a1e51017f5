package dev.ratchet.langchain4j;

import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
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

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** LangChain4j's AiServices and OpenAI chat model against a local chat-completions server, with a real Ratchet. */
class RatchetToolProviderTest {

  @RegisterExtension
  static final ToolCallingModel MODEL = new ToolCallingModel();

  @RegisterExtension
  static final TestShop SHOP = new TestShop("lc4j-test");

  interface Assistant {
    String chat(@MemoryId String session, @UserMessage String text);
  }

  private static Assistant assistant;
  private final String session = TestShop.newSession("lc4j");

  @BeforeAll
  static void start() {
    RatchetToolProvider tools = RatchetToolProvider.create(SHOP.shop().turns("tenant-1"));
    assistant = AiServices.builder(Assistant.class)
        .chatModel(OpenAiChatModel.builder().baseUrl(MODEL.baseUrl()).apiKey("sk-test").modelName("gpt-test")
            .maxRetries(0).listeners(List.of(tools.listener())).build())
        .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(20))
        .toolProvider(tools)
        .build();
  }

  @Test
  void theCallsOfOneAiMessageRunAsOneTurnAndAnApprovedWriteRunsOnce() throws Exception {
    MODEL.respond("chatcmpl-lc-1", "call_look", "look_up_order", "{\"orderId\":\"C-1\"}",
        "call_refund", "refund_order", "{\"orderId\":\"C-1\",\"amountCents\":25000}");
    int asked = MODEL.requests().size();

    CompletableFuture<String> answer = CompletableFuture.supplyAsync(() -> assistant.chat(session, "refund all of C-1"));
    ApprovalRequest request = SHOP.shop().awaitApproval(session, "refund_order", 20);
    // the refund is the second call of the response's turn, not a turn of its own
    assertThat(request.callId()).isEqualTo(CallId.of(session, "chatcmpl-lc-1", 1));
    assertThat(SHOP.provider().effects("refund_order", "C-1")).isZero();
    SHOP.shop().approve(request, "ana", "customer verified");

    assertThat(answer.get(30, TimeUnit.SECONDS)).startsWith("The shop said: ").contains("succeeded");
    assertThat(SHOP.provider().effects("refund_order", "C-1")).isEqualTo(1);
    JsonArray sent = MODEL.requests().get(asked + 1).getJsonArray("messages");
    assertThat(sent.getJsonObject(sent.size() - 2).getString("tool_call_id")).isEqualTo("call_look");
    assertThat(sent.getJsonObject(sent.size() - 2).getString("content")).contains("delivered");
    JsonObject refund = MODEL.requests().get(asked).getJsonArray("tools").stream().map(JsonObject.class::cast)
        .filter(t -> t.getJsonObject("function").getString("name").equals("refund_order")).findFirst().orElseThrow();
    assertThat(refund.getJsonObject("function").getJsonObject("parameters").getJsonObject("properties"))
        .isEqualTo(Shop.REFUND_SCHEMA.getJsonObject("properties"));
  }

  @Test
  void aRejectionReachesTheModelWithTheApproversReasonAndNothingIsSent() throws Exception {
    MODEL.respond("chatcmpl-lc-2", "call_mail", "email_customer", "{\"orderId\":\"C-2\",\"text\":\"Sorry!\"}");

    CompletableFuture<String> answer = CompletableFuture.supplyAsync(() -> assistant.chat(session, "apologise for C-2"));
    SHOP.shop().reject(SHOP.shop().awaitApproval(session, "email_customer", 20), "ana", "this customer asked not to be e-mailed");

    assertThat(answer.get(30, TimeUnit.SECONDS)).contains("failed").contains("this customer asked not to be e-mailed");
    assertThat(SHOP.provider().effects("email_customer", "C-2")).isZero();
  }

  @Test
  void theSameResponseAgainSendsNoWriteTwice() {
    MODEL.respond("chatcmpl-lc-3", "call_a", "refund_order", "{\"orderId\":\"C-3\",\"amountCents\":900}",
        "call_b", "refund_order", "{\"orderId\":\"C-4\",\"amountCents\":800}");

    String first = assistant.chat(session, "refund C-3 and C-4");
    String again = assistant.chat(session, "refund C-3 and C-4");

    assertThat(again).isEqualTo(first);
    assertThat(SHOP.provider().effects("refund_order", "C-3") + SHOP.provider().effects("refund_order", "C-4")).isEqualTo(2);
  }

  @Test
  void aRefusedWriteSkipsTheLaterWriteOfTheSameAiMessage() throws Exception {
    MODEL.respond("chatcmpl-lc-4", "call_mail", "email_customer", "{\"orderId\":\"C-5\",\"text\":\"Refund coming\"}",
        "call_refund", "refund_order", "{\"orderId\":\"C-5\",\"amountCents\":900}");
    int asked = MODEL.requests().size();

    CompletableFuture<String> answer = CompletableFuture.supplyAsync(() -> assistant.chat(session, "refund C-5"));
    SHOP.shop().reject(SHOP.shop().awaitApproval(session, "email_customer", 20), "ana", "not this customer");
    answer.get(30, TimeUnit.SECONDS);

    assertThat(SHOP.provider().effects("refund_order", "C-5")).isZero();
    JsonArray sent = MODEL.requests().get(asked + 1).getJsonArray("messages");
    assertThat(sent.getJsonObject(sent.size() - 1).getString("tool_call_id")).isEqualTo("call_refund");
    assertThat(new JsonObject(sent.getJsonObject(sent.size() - 1).getString("content")).getString("error"))
        .startsWith("the tool did not run, so it is safe to call again");
  }
}
