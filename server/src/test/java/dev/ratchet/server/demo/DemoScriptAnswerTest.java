package dev.ratchet.server.demo;

import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.agent.ChatMessage;
import dev.ratchet.runtime.agent.ModelRequest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The demo model's answer describes the orders as they are after its calls, never contradicting itself. */
class DemoScriptAnswerTest {

  private static final JsonObject OPEN = new JsonObject().put("outcome", "succeeded").put("result",
      new JsonObject().put("customer", "Grace Hopper").put("total", 129.0).put("status", "open"));

  private static String answer(String userText, List<ToolCall> calls, List<JsonObject> results) {
    List<ChatMessage> messages = new java.util.ArrayList<>(List.of(ChatMessage.user(userText),
        ChatMessage.assistant(null, calls)));
    for (int i = 0; i < calls.size(); i++) {
      messages.add(ChatMessage.toolResult(calls.get(i).modelCallId(), calls.get(i).name(), results.get(i).encode()));
    }
    return DemoScript.answer(new ModelRequest(messages, List.of())).text();
  }

  private static ToolCall call(String tool, String id) {
    return new ToolCall(tool, new JsonObject().put("orderId", "1002"), id);
  }

  @Test
  void aCancelledOrderIsNeverAlsoSaidToBeOpen() {
    String text = answer("cancel order 1002", List.of(call(DemoScript.LOOK_UP, "c1"), call(DemoScript.CANCEL_ORDER, "c2")),
        List.of(OPEN, new JsonObject().put("outcome", "succeeded").put("result", new JsonObject())));
    assertThat(text).contains("Order 1002 is now cancelled").contains("was open").doesNotContain("is open");
  }

  @Test
  void anOrderWhoseCancelFailedIsStillOpen() {
    String text = answer("cancel order 1002", List.of(call(DemoScript.LOOK_UP, "c1"), call(DemoScript.CANCEL_ORDER, "c2")),
        List.of(OPEN, new JsonObject().put("outcome", "failed").put("error", "rejected by admin: not today")));
    assertThat(text).contains("is open").contains("was not cancelled").doesNotContain("now cancelled");
  }

  @Test
  void aLookUpAloneSaysHowTheOrderIs() {
    String text = answer("look up order 1002", List.of(call(DemoScript.LOOK_UP, "c1")), List.of(OPEN));
    assertThat(text).isEqualTo("Order 1002 (Grace Hopper, 129.0) is open.");
  }
}
