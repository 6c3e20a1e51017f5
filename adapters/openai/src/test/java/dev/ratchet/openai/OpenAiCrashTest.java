package dev.ratchet.openai;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionToolMessageParam;
import dev.ratchet.runtime.testing.ChildJvm;
import dev.ratchet.runtime.testing.FakeOpenAiServer;
import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.turns.testing.EmbeddedShop;
import dev.ratchet.turns.testing.ShopProvider;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.ratchet.runtime.testing.Closeables.closeStarted;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application using the OpenAI SDK is killed with SIGKILL between two writes of one completion;
 * started again, it asks the model again, gets the same completion and runs it again: the first
 * write is not sent a second time, and the second runs once approved.
 */
class OpenAiCrashTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private final String session = "openai-crash-" + UUID.randomUUID().toString().substring(0, 8);
  private final ShopProvider provider = new ShopProvider();
  private final FakeOpenAiServer model = new FakeOpenAiServer(body -> FakeOpenAiServer.toolCalls(
      "call_refund", "refund_order", "{\"orderId\":\"A-9\",\"amountCents\":1500}",
      "call_mail", "email_customer", "{\"orderId\":\"A-9\",\"text\":\"Your refund is on its way.\"}")
      .put("id", "chatcmpl-crash-1"));
  private ChildJvm child;
  private EmbeddedShop restarted;

  @AfterEach
  void stop() throws Exception {
    closeStarted(child, restarted);
    model.close();
    provider.close();
  }

  @Test
  void anApplicationKilledBetweenTwoWritesReplaysTheSameCompletionAndTheFirstWriteIsNotSentAgain() throws Exception {
    child = new ChildJvm(OpenAiShopNode.class, REDIS.url(), REDIS.keyPrefix(), provider.url(), model.baseUrl(), session);
    child.awaitEvent("approval-requested", 60);
    assertThat(provider.effects("refund_order")).isEqualTo(1);
    // SIGKILL, the refund sent, the e-mail waiting for a person
    assertThat(child.kill()).isTrue();

    restarted = EmbeddedShop.start(REDIS.url(), REDIS.keyPrefix(), provider.url(), "openai-crash-test");
    OpenAIClient client = OpenAIOkHttpClient.builder().baseUrl(model.baseUrl()).apiKey("sk-test").maxRetries(0).build();
    try {
      OpenAiTurns turns = new OpenAiTurns(restarted.turns("tenant-1"));
      ChatCompletion again = client.chat().completions().create(ChatCompletionCreateParams.builder()
          .model("gpt-test").addUserMessage("refund order A-9 and tell the customer").build());
      CompletableFuture<List<ChatCompletionToolMessageParam>> running =
          CompletableFuture.supplyAsync(() -> turns.run(session, again));
      restarted.approve(restarted.awaitApproval(session, "email_customer", 30), "ana", "fine");

      List<ChatCompletionToolMessageParam> results = running.get(30, TimeUnit.SECONDS);
      assertThat(results).extracting(r -> new JsonObject(r.content().asText()).getString("outcome"))
          .containsExactly("succeeded", "succeeded");
    } finally {
      client.close();
    }
    assertThat(model.requests()).hasSize(2);
    assertThat(provider.effects("refund_order")).isEqualTo(1);
    assertThat(provider.effects("email_customer")).isEqualTo(1);
  }
}
