package dev.ratchet.server.demo;

import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.agent.ChatMessage;
import dev.ratchet.runtime.agent.ModelRequest;
import dev.ratchet.runtime.agent.ModelResponse;
import dev.ratchet.runtime.agent.ScriptedModel;
import dev.ratchet.runtime.agent.ToolSpec;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The demo's model when none is configured: a script that understands "cancel order 1002",
 * "refund 20 on order 1001", "look up order 1003" and "reply in slack thread C0123 1710000000.000100: text",
 * asks for the tools, and answers from their results. No network, no cost, the same every time.
 */
public final class DemoScript {

  private static final Pattern CANCEL = Pattern.compile("cancel(?:\\s+order)?\\s+#?(\\d{4})");
  private static final Pattern REFUND_AMOUNT_FIRST =
      Pattern.compile("refund\\s+\\$?(\\d+(?:\\.\\d+)?)\\s+(?:on|of|for|from)\\s+(?:order\\s+)?#?(\\d{4})");
  private static final Pattern REFUND_ORDER_FIRST =
      Pattern.compile("refund\\s+(?:order\\s+)?#?(\\d{4})\\s+(?:by\\s+|for\\s+)?\\$?(\\d+(?:\\.\\d+)?)");
  private static final Pattern SLACK = Pattern.compile(
      "(?:reply|post)\\s+in\\s+slack\\s+thread\\s+(\\S+)\\s+(\\d+\\.\\d+)\\s*:\\s*(.+)", Pattern.CASE_INSENSITIVE);
  private static final Pattern ORDER = Pattern.compile("#?(\\d{4})");

  static final String LOOK_UP = "shop_look_up_order";
  static final String CANCEL_ORDER = "shop_cancel_order";
  static final String REFUND = "shop_refund_order";

  private DemoScript() {
  }

  public static ScriptedModel model() {
    return ScriptedModel.from(DemoScript::answer).named("scripted demo model");
  }

  static ModelResponse answer(ModelRequest request) {
    List<ChatMessage> since = request.sinceLastUser();
    if (!since.isEmpty()) {
      return ModelResponse.text(summary(since));
    }
    String raw = request.lastUserText() == null ? "" : request.lastUserText().trim();
    String text = raw.toLowerCase(Locale.ROOT);
    List<String> tools = request.tools().stream().map(ToolSpec::name).toList();
    Matcher m = SLACK.matcher(raw);
    if (m.find() && tools.contains("slack_post_thread_reply")) {
      return ModelResponse.toolCalls(new ToolCall("slack_post_thread_reply", new JsonObject()
          .put("channel", m.group(1)).put("thread_ts", m.group(2)).put("text", m.group(3).trim())));
    }
    m = CANCEL.matcher(text);
    if (m.find()) {
      return ModelResponse.toolCalls(order(LOOK_UP, m.group(1)), order(CANCEL_ORDER, m.group(1)));
    }
    m = REFUND_AMOUNT_FIRST.matcher(text);
    if (m.find()) {
      return ModelResponse.toolCalls(refund(m.group(2), m.group(1)));
    }
    m = REFUND_ORDER_FIRST.matcher(text);
    if (m.find()) {
      return ModelResponse.toolCalls(refund(m.group(1), m.group(2)));
    }
    m = ORDER.matcher(text);
    if (m.find()) {
      return ModelResponse.toolCalls(order(LOOK_UP, m.group(1)));
    }
    return ModelResponse.text("I am the demo's scripted model. Try \"cancel order 1002\", \"refund 20 on order 1001\""
        + " (refunds over 100 need approval) or \"look up order 1003\"."
        + (tools.contains("slack_post_thread_reply")
        ? " With Slack: \"reply in slack thread C0123456789 1710000000.000100: your text\"." : ""));
  }

  private static ToolCall order(String tool, String orderId) {
    return new ToolCall(tool, new JsonObject().put("orderId", orderId));
  }

  private static ToolCall refund(String orderId, String amount) {
    return new ToolCall(REFUND, new JsonObject().put("orderId", orderId)
        .put("body", new JsonObject().put("amount", Double.parseDouble(amount))));
  }

  /**
   * One sentence per tool result, from the calls the script asked for. The answer describes the
   * orders as the calls left them: an order a write of the same round changed is said to have been
   * as its look-up found it, not to be so still.
   */
  private static String summary(List<ChatMessage> since) {
    Map<String, ToolCall> calls = new HashMap<>();
    for (ChatMessage m : since) {
      m.toolCalls().forEach(c -> calls.put(c.modelCallId(), c));
    }
    Set<String> changed = new HashSet<>();
    for (ChatMessage m : since) {
      ToolCall call = m.role() == ChatMessage.Role.TOOL ? calls.get(m.toolCallId()) : null;
      if (call != null && !LOOK_UP.equals(m.toolName())
          && "succeeded".equals(new JsonObject(m.text()).getString("outcome"))) {
        changed.add(call.arguments().getString("orderId", "?"));
      }
    }
    List<String> sentences = new ArrayList<>();
    for (ChatMessage m : since) {
      if (m.role() != ChatMessage.Role.TOOL) {
        continue;
      }
      ToolCall call = calls.get(m.toolCallId());
      JsonObject content = new JsonObject(m.text());
      String orderId = call == null ? "?" : call.arguments().getString("orderId", "?");
      boolean ok = "succeeded".equals(content.getString("outcome"));
      JsonObject result = content.getValue("result") instanceof JsonObject r ? r : new JsonObject();
      String tool = m.toolName() == null ? "" : m.toolName();
      switch (tool) {
        case LOOK_UP:
          sentences.add(ok ? "Order " + orderId + " (" + result.getString("customer") + ", " + result.getValue("total")
              + ") " + (changed.contains(orderId) ? "was " : "is ") + result.getString("status") + "."
              : "I could not look up order " + orderId + ": "
              + content.getString("error"));
          break;
        case CANCEL_ORDER:
          sentences.add(ok ? "Order " + orderId + " is now cancelled." : "Order " + orderId + " was not cancelled: "
              + content.getString("error"));
          break;
        case REFUND:
          sentences.add(ok ? "Refunded " + result.getValue("amount") + " on order " + orderId + " (refund "
              + result.getString("refundId") + ")." : "The refund on order " + orderId + " did not go through: "
              + content.getString("error"));
          break;
        default:
          sentences.add(ok ? tool + " succeeded." : tool + " ended " + content.getString("outcome") + ": "
              + content.getString("error"));
      }
    }
    return String.join(" ", sentences);
  }
}
