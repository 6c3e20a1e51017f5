package dev.ratchet.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.openai.core.JsonValue;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import com.openai.models.chat.completions.ChatCompletionMessage;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import com.openai.models.chat.completions.ChatCompletionMessageToolCall;
import com.openai.models.chat.completions.ChatCompletionToolMessageParam;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.turns.AgentTool;
import dev.ratchet.turns.RatchetTurns;
import dev.ratchet.turns.ToolResultText;
import dev.ratchet.turns.TurnIds;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * For applications that run their own loop with the OpenAI Java SDK: the agent's catalogue as
 * function tools, the {@code tool_calls} of one chat completion run as one Ratchet turn, and the
 * results as {@code tool} messages in the model's order. The turn id is the completion's id
 * ({@link TurnIds}), so running the same completion again, after a crash, runs no write twice.
 */
public final class OpenAiTurns {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final RatchetTurns ratchet;

  public OpenAiTurns(RatchetTurns ratchet) {
    this.ratchet = ratchet;
  }

  /** The agent's tools as the model should see them, schemas exactly as the catalogue gives them. */
  public List<ChatCompletionFunctionTool> tools() {
    List<ChatCompletionFunctionTool> tools = new ArrayList<>();
    for (AgentTool tool : ratchet.toolList()) {
      FunctionParameters.Builder parameters = FunctionParameters.builder();
      toMap(tool.inputSchema()).forEach((key, value) -> parameters.putAdditionalProperty(key, JsonValue.from(value)));
      tools.add(ChatCompletionFunctionTool.builder().function(FunctionDefinition.builder().name(tool.name())
          .description(tool.description()).parameters(parameters.build()).build()).build());
    }
    return tools;
  }

  /**
   * Runs the tool calls of the completion's first choice as one turn of the session and answers
   * the {@code tool} messages to append after that message. Blocks until every call has its outcome
   * (approvals included); call it from the application's own thread.
   */
  public List<ChatCompletionToolMessageParam> run(String sessionId, ChatCompletion completion) {
    ChatCompletionMessage message = completion.choices().get(0).message();
    TurnResult result = ratchet.run(sessionId, turn(completion.id(), message));
    return toolMessages(message, result);
  }

  /** The turn of a message: its function tool calls in order, named after the completion's id. */
  public static Turn turn(String completionId, ChatCompletionMessage message) {
    List<ChatCompletionMessageToolCall> toolCalls = message.toolCalls().orElse(List.of());
    List<ToolCall> calls = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    for (ChatCompletionMessageToolCall toolCall : toolCalls) {
      if (!toolCall.isFunction()) {
        throw new IllegalArgumentException("only function tool calls run in Ratchet; the message has another kind");
      }
      ChatCompletionMessageFunctionToolCall call = toolCall.asFunction();
      ids.add(call.id());
      calls.add(toolCall(call.function().name(), call.function().arguments(), TurnIds.sanitize(call.id())));
    }
    if (calls.isEmpty()) {
      throw new IllegalArgumentException("the message asks for no tool calls");
    }
    return new Turn(TurnIds.of(completionId, ids), calls);
  }

  /** A {@code tool} message per tool call of {@code message}, paired with the turn's results by position. */
  public static List<ChatCompletionToolMessageParam> toolMessages(ChatCompletionMessage message, TurnResult result) {
    List<ChatCompletionToolMessageParam> out = new ArrayList<>();
    List<ChatCompletionMessageToolCall> toolCalls = message.toolCalls().orElse(List.of());
    for (int i = 0; i < toolCalls.size(); i++) {
      CallResult call = result.call(i);
      out.add(ChatCompletionToolMessageParam.builder().toolCallId(toolCalls.get(i).asFunction().id())
          .content(ToolResultText.of(call)).build());
    }
    return out;
  }

  static ToolCall toolCall(String name, String argumentsText, String modelCallId) {
    try {
      Object parsed = Json.decodeValue(argumentsText == null || argumentsText.isBlank() ? "{}" : argumentsText);
      if (parsed instanceof JsonObject arguments) {
        return new ToolCall(name, arguments, modelCallId);
      }
    } catch (DecodeException e) {
      // kept as written: the call fails validation and the model reads why
    }
    return ToolCall.unparsable(name, argumentsText, modelCallId);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> toMap(JsonObject schema) {
    try {
      return MAPPER.readValue(schema.encode(), Map.class);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("the schema is not JSON", e);
    }
  }
}
