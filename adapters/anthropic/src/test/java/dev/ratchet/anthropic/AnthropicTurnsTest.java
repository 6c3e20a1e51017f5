package dev.ratchet.anthropic;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.models.messages.ContentBlockParam;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.ToolResultBlockParam;
import com.anthropic.models.messages.UserMessageParam;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.turns.testing.FakeAnthropicServer;
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

/** The Anthropic Java SDK's own client and types against a local Messages server, with a real Ratchet. */
class AnthropicTurnsTest {

  @RegisterExtension
  static final TestShop SHOP = new TestShop("anthropic-test");

  private static FakeAnthropicServer model;
  private static AnthropicClient client;
  private static AnthropicTurns turns;
  private final String session = TestShop.newSession("anthropic");

  @BeforeAll
  static void start() {
    model = new FakeAnthropicServer(body -> FakeAnthropicServer.text("msg_0", "ok"));
    client = AnthropicOkHttpClient.builder().baseUrl(model.baseUrl()).apiKey("sk-ant-test").maxRetries(0).build();
    SHOP.onClose(model::close);
    SHOP.onClose(client::close);
    turns = new AnthropicTurns(SHOP.shop().turns("tenant-1"));
  }

  private Message ask(String text) {
    MessageCreateParams.Builder params = MessageCreateParams.builder().model("claude-test").maxTokens(1024)
        .addUserMessage(text);
    turns.tools().forEach(params::addTool);
    return client.messages().create(params.build());
  }

  /** Runs the tool uses of the model's answer to {@code text} while the test acts as the approver. */
  private CompletableFuture<UserMessageParam> runInBackground(String text) {
    Message message = ask(text);
    return CompletableFuture.supplyAsync(() -> turns.run(session, message));
  }

  private static ToolResultBlockParam firstResult(CompletableFuture<UserMessageParam> running) throws Exception {
    return results(running.get(20, TimeUnit.SECONDS)).get(0);
  }

  private static List<ToolResultBlockParam> results(UserMessageParam message) {
    return message.content().asContentBlockParams().stream().map(ContentBlockParam::asToolResult).toList();
  }

  private static JsonObject text(ToolResultBlockParam block) {
    return new JsonObject(block.content().orElseThrow().asString());
  }

  @Test
  void theToolUsesOfAMessageRunAsOneTurnAndComeBackAsToolResults() {
    model.script(body -> FakeAnthropicServer.toolUses("msg_01", "toolu_look", "look_up_order", "{\"orderId\":\"B-1\"}",
        "toolu_refund", "refund_order", "{\"orderId\":\"B-1\",\"amountCents\":2500}"));
    int asked = model.requests().size();
    Message message = ask("refund 25.00 of order B-1");

    UserMessageParam reply = turns.run(session, message);

    assertThat(results(reply)).extracting(ToolResultBlockParam::toolUseId).containsExactly("toolu_look", "toolu_refund");
    assertThat(text(results(reply).get(0)).getJsonObject("result").getString("status")).isEqualTo("delivered");
    assertThat(results(reply).get(1).isError()).hasValue(false);
    assertThat(SHOP.provider().effects("refund_order", "B-1")).isEqualTo(1);
    JsonObject refundTool = model.requests().get(asked).getJsonArray("tools").getJsonObject(1);
    assertThat(refundTool.getString("name")).isEqualTo("refund_order");
    assertThat(refundTool.getJsonObject("input_schema")).isEqualTo(Shop.REFUND_SCHEMA);

    // the application's loop sends the results back as the next user message
    model.script(body -> FakeAnthropicServer.text("msg_02", "Refunded 25.00."));
    Message answer = client.messages().create(MessageCreateParams.builder().model("claude-test").maxTokens(1024)
        .addUserMessage("refund 25.00 of order B-1").addMessage(message).addMessage(reply).build());
    assertThat(answer.content().get(0).asText().text()).isEqualTo("Refunded 25.00.");
    JsonArray sent = model.requests().get(asked + 1).getJsonArray("messages");
    JsonObject toolResult = sent.getJsonObject(2).getJsonArray("content").getJsonObject(1);
    assertThat(toolResult.getString("type")).isEqualTo("tool_result");
    assertThat(toolResult.getString("tool_use_id")).isEqualTo("toolu_refund");
  }

  @Test
  void aWriteThatNeedsApprovalRunsOnceAPersonApprovesIt() throws Exception {
    model.script(body -> FakeAnthropicServer.toolUses("msg_03", "toolu_big", "refund_order",
        "{\"orderId\":\"B-2\",\"amountCents\":25000}"));
    CompletableFuture<UserMessageParam> running = runInBackground("refund all of order B-2");
    ApprovalRequest request = SHOP.shop().awaitApproval(session, "refund_order", 20);
    assertThat(request.turnId()).isEqualTo("msg_03");
    SHOP.shop().approve(request, "ana", "customer verified");

    ToolResultBlockParam result = firstResult(running);
    assertThat(text(result).getString("outcome")).isEqualTo("succeeded");
    assertThat(SHOP.provider().effects("refund_order", "B-2")).isEqualTo(1);
  }

  @Test
  void aRejectionIsAnErrorResultWithTheApproversReasonAndNothingIsSent() throws Exception {
    model.script(body -> FakeAnthropicServer.toolUses("msg_04", "toolu_mail", "email_customer",
        "{\"orderId\":\"B-3\",\"text\":\"Sorry!\"}"));
    CompletableFuture<UserMessageParam> running = runInBackground("apologise to the customer of B-3");
    SHOP.shop().reject(SHOP.shop().awaitApproval(session, "email_customer", 20), "ana", "this customer asked not to be e-mailed");

    ToolResultBlockParam result = firstResult(running);
    assertThat(result.isError()).hasValue(true);
    assertThat(text(result).getString("error")).contains("this customer asked not to be e-mailed");
    assertThat(SHOP.provider().effects("email_customer", "B-3")).isZero();
  }

  @Test
  void runningTheSameMessageAgainSendsNoWriteTwice() {
    model.script(body -> FakeAnthropicServer.toolUses("msg_05", "toolu_a", "refund_order",
        "{\"orderId\":\"B-4\",\"amountCents\":900}", "toolu_b", "refund_order", "{\"orderId\":\"B-5\",\"amountCents\":800}"));
    Message message = ask("refund B-4 and B-5");

    List<ToolResultBlockParam> first = results(turns.run(session, message));
    List<ToolResultBlockParam> again = results(turns.run(session, message));

    assertThat(again).extracting(r -> r.content().orElseThrow().asString())
        .isEqualTo(first.stream().map(r -> r.content().orElseThrow().asString()).toList());
    assertThat(SHOP.provider().effects("refund_order", "B-4") + SHOP.provider().effects("refund_order", "B-5")).isEqualTo(2);
  }

  @Test
  void theDocumentedLoopRunsTheToolsAndReturnsTheModelsAnswer() {
    model.script(body -> {
      JsonArray messages = body.getJsonArray("messages");
      JsonObject last = messages.getJsonObject(messages.size() - 1);
      return last.getValue("content") instanceof JsonArray blocks
          && "tool_result".equals(blocks.getJsonObject(0).getString("type"))
          ? FakeAnthropicServer.text("msg_07", "Done: " + blocks.getJsonObject(0).getString("content"))
          : FakeAnthropicServer.toolUses("msg_06", "toolu_look", "look_up_order", "{\"orderId\":\"B-6\"}");
    });
    assertThat(AnthropicExample.answer(client, SHOP.shop().ratchet(), session, "where is B-6?")).startsWith("Done: ")
        .contains("delivered");
  }
}
