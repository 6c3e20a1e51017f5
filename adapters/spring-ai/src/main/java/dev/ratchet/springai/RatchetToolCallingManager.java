package dev.ratchet.springai;

import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.turns.RatchetTurns;
import dev.ratchet.turns.ToolResultText;
import dev.ratchet.turns.TurnIds;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;
import org.springframework.ai.tool.definition.ToolDefinition;

import java.util.ArrayList;
import java.util.List;

/**
 * A Spring AI {@link ToolCallingManager} that runs all the tool calls of one {@link ChatResponse} as
 * one Ratchet turn (writes in order, later writes skipped after a failure, approvals by a person)
 * and gives the model the conversation with their results. The turn id is the response's id
 * ({@link TurnIds}), so running the same response again after a crash runs no write twice. The
 * session is the prompt's tool context entry {@link #SESSION_KEY}; the tools the model sees are the
 * agent's catalogue.
 */
public final class RatchetToolCallingManager implements ToolCallingManager {

  /** The tool context key whose value is the Ratchet session of a prompt. */
  public static final String SESSION_KEY = "ratchet.session";

  private final RatchetTurns ratchet;

  public RatchetToolCallingManager(RatchetTurns ratchet) {
    this.ratchet = ratchet;
  }

  @Override
  public List<ToolDefinition> resolveToolDefinitions(ToolCallingChatOptions chatOptions) {
    return ratchet.toolList().stream().map(RatchetToolCallbacks::definition).toList();
  }

  @Override
  public ToolExecutionResult executeToolCalls(Prompt prompt, ChatResponse chatResponse) {
    AssistantMessage message = chatResponse.getResults().stream().map(Generation::getOutput)
        .filter(AssistantMessage::hasToolCalls).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("the response asks for no tool calls"));
    String session = RatchetToolCallbacks.session(prompt.getOptions() instanceof ToolCallingChatOptions options
        ? options.getToolContext() : null);
    String responseId = chatResponse.getMetadata() == null ? null : chatResponse.getMetadata().getId();
    TurnResult result = ratchet.run(session, turn(responseId, message.getToolCalls()));

    List<ToolResponseMessage.ToolResponse> responses = new ArrayList<>();
    for (int i = 0; i < message.getToolCalls().size(); i++) {
      AssistantMessage.ToolCall call = message.getToolCalls().get(i);
      responses.add(new ToolResponseMessage.ToolResponse(call.id(), call.name(), ToolResultText.of(result.call(i))));
    }
    List<Message> history = new ArrayList<>(prompt.getInstructions());
    history.add(message);
    history.add(ToolResponseMessage.builder().responses(responses).build());
    return ToolExecutionResult.builder().conversationHistory(history).build();
  }

  /** The turn of a response: its tool calls in order, named after the response's id. */
  public static Turn turn(String responseId, List<AssistantMessage.ToolCall> toolCalls) {
    List<ToolCall> calls = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    for (AssistantMessage.ToolCall call : toolCalls) {
      ids.add(call.id());
      calls.add(toolCall(call.name(), call.arguments(), call.id() == null || call.id().isEmpty() ? null
          : TurnIds.sanitize(call.id())));
    }
    return new Turn(TurnIds.of(responseId, ids), calls);
  }

  static ToolCall toolCall(String name, String text, String modelCallId) {
    try {
      if (Json.decodeValue(text == null || text.isBlank() ? "{}" : text) instanceof JsonObject arguments) {
        return new ToolCall(name, arguments, modelCallId);
      }
    } catch (DecodeException e) {
      // kept as written: the call fails validation and the model reads why
    }
    return ToolCall.unparsable(name, text, modelCallId);
  }
}
