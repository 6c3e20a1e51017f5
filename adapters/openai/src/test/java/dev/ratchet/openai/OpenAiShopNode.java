package dev.ratchet.openai;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.ratchet.turns.testing.EmbeddedShop;
import dev.ratchet.verticles.StepEvents;
import io.vertx.core.json.JsonObject;

/**
 * An application in its own JVM, for the crash test: asks the model (a local chat-completions
 * server) once and runs the completion's tool calls through Ratchet. It prints a JSON line when a
 * write waits for approval, so that the test can kill it there, after the writes before it ran.
 * Arguments: redis url, key prefix, provider URL, model base URL, session id.
 */
public final class OpenAiShopNode {

  public static void main(String[] args) {
    EmbeddedShop shop = EmbeddedShop.start(args[0], args[1], args[2], "openai-node-" + ProcessHandle.current().pid());
    StepEvents.publishAll(shop.vertx());
    shop.vertx().eventBus().addOutboundInterceptor(ctx -> {
      if (ctx.message().address().endsWith(".events") && ctx.message().body() instanceof JsonObject event
          && "approval.requested".equals(event.getString("type"))) {
        print(new JsonObject().put("event", "approval-requested").put("turnId", event.getString("turnId")));
      }
      ctx.next();
    });
    OpenAIClient client = OpenAIOkHttpClient.builder().baseUrl(args[3]).apiKey("sk-test").maxRetries(0).build();
    OpenAiTurns turns = new OpenAiTurns(shop.turns("tenant-1"));
    ChatCompletionCreateParams.Builder params = ChatCompletionCreateParams.builder().model("gpt-test")
        .addUserMessage("refund order A-9 and tell the customer");
    turns.tools().forEach(params::addTool);
    ChatCompletion completion = client.chat().completions().create(params.build());
    print(new JsonObject().put("event", "completion").put("id", completion.id()));
    turns.run(args[4], completion);
    print(new JsonObject().put("event", "done"));
  }

  private static synchronized void print(JsonObject line) {
    System.out.println(line.encode());
    System.out.flush();
  }
}
