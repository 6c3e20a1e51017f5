package dev.ratchet.anthropic;

import com.anthropic.core.JsonValue;
import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.ContentBlockParam;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.Tool;
import com.anthropic.models.messages.ToolResultBlockParam;
import com.anthropic.models.messages.ToolUseBlock;
import com.anthropic.models.messages.UserMessageParam;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.turns.AgentTool;
import dev.ratchet.turns.RatchetTurns;
import dev.ratchet.turns.ToolResultText;
import dev.ratchet.turns.TurnIds;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * For applications that run their own loop with the Anthropic Java SDK: the agent's catalogue as
 * tools, the {@code tool_use} blocks of one message run as one Ratchet turn, and the results as
 * {@code tool_result} blocks of the next user message. The turn id is the message's id
 * ({@link TurnIds}), so running the same message again, after a crash, runs no write twice.
 */
public final class AnthropicTurns {

  private final RatchetTurns ratchet;

  public AnthropicTurns(RatchetTurns ratchet) {
    this.ratchet = ratchet;
  }

  /** The agent's tools as the model should see them, schemas exactly as the catalogue gives them. */
  public List<Tool> tools() {
    List<Tool> tools = new ArrayList<>();
    for (AgentTool tool : ratchet.toolList()) {
      JsonObject schema = tool.inputSchema();
      Tool.InputSchema.Builder input = Tool.InputSchema.builder();
      Tool.InputSchema.Properties.Builder properties = Tool.InputSchema.Properties.builder();
      schema.getJsonObject("properties", new JsonObject()).getMap().keySet().forEach(name ->
          properties.putAdditionalProperty(name, json(schema.getJsonObject("properties").getValue(name))));
      input.properties(properties.build());
      if (schema.getValue("required") instanceof JsonArray required) {
        input.required(required.stream().map(String::valueOf).toList());
      }
      for (String key : schema.fieldNames()) {
        if (!key.equals("type") && !key.equals("properties") && !key.equals("required")) {
          input.putAdditionalProperty(key, json(schema.getValue(key)));
        }
      }
      tools.add(Tool.builder().name(tool.name()).description(tool.description()).inputSchema(input.build()).build());
    }
    return tools;
  }

  /**
   * Runs the {@code tool_use} blocks of the message as one turn of the session and answers the user
   * message that carries their {@code tool_result} blocks. Blocks until every call has its outcome
   * (approvals included); call it from the application's own thread.
   */
  public UserMessageParam run(String sessionId, Message message) {
    TurnResult result = ratchet.run(sessionId, turn(message));
    return UserMessageParam.ofContentBlockParams(toolResults(message, result));
  }

  /** The turn of a message: its {@code tool_use} blocks in order, named after the message's id. */
  public static Turn turn(Message message) {
    List<ToolCall> calls = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    for (ToolUseBlock use : toolUses(message)) {
      ids.add(use.id());
      @SuppressWarnings("unchecked")
      Map<String, Object> input = use._input().convert(Map.class);
      calls.add(new ToolCall(use.name(), new JsonObject(Json.encode(input)),
          TurnIds.sanitize(use.id())));
    }
    if (calls.isEmpty()) {
      throw new IllegalArgumentException("the message has no tool_use blocks");
    }
    return new Turn(TurnIds.of(message.id(), ids), calls);
  }

  /** A {@code tool_result} block per {@code tool_use} block of the message, paired with the turn's results by position. */
  public static List<ContentBlockParam> toolResults(Message message, TurnResult result) {
    List<ContentBlockParam> out = new ArrayList<>();
    List<ToolUseBlock> uses = toolUses(message);
    for (int i = 0; i < uses.size(); i++) {
      CallResult call = result.call(i);
      out.add(ContentBlockParam.ofToolResult(ToolResultBlockParam.builder().toolUseId(uses.get(i).id())
          .content(ToolResultText.of(call)).isError(ToolResultText.isError(call)).build()));
    }
    return out;
  }

  private static List<ToolUseBlock> toolUses(Message message) {
    return message.content().stream().filter(ContentBlock::isToolUse).map(ContentBlock::asToolUse).toList();
  }

  private static JsonValue json(Object value) {
    return JsonValue.from(plain(value));
  }

  private static Object plain(Object value) {
    if (value instanceof JsonObject o) {
      Map<String, Object> map = new LinkedHashMap<>();
      o.forEach(e -> map.put(e.getKey(), plain(e.getValue())));
      return map;
    }
    if (value instanceof JsonArray a) {
      return a.stream().map(AnthropicTurns::plain).toList();
    }
    return value;
  }
}
