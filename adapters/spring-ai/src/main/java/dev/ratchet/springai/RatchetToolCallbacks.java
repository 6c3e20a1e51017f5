package dev.ratchet.springai;

import dev.ratchet.runtime.Turn;
import dev.ratchet.turns.AgentTool;
import dev.ratchet.turns.RatchetTurns;
import dev.ratchet.turns.ToolResultText;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.definition.ToolDefinition;

import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * An agent's catalogue as Spring AI {@link ToolCallback}s, for a {@code ChatClient} whose tool calls
 * Spring's own manager runs. Spring hands a callback one call and no call id, so each call is a
 * turn of its own with a new id: Ratchet's approvals and outcomes apply, but a response run again
 * runs its writes again, and the writes of one response are not ordered as one turn. With
 * {@link RatchetToolCallingManager} they are.
 */
public final class RatchetToolCallbacks implements ToolCallbackProvider {

  private final RatchetTurns ratchet;

  public RatchetToolCallbacks(RatchetTurns ratchet) {
    this.ratchet = ratchet;
  }

  @Override
  public ToolCallback[] getToolCallbacks() {
    return ratchet.toolList().stream().map(Callback::new).toArray(ToolCallback[]::new);
  }

  static ToolDefinition definition(AgentTool tool) {
    return ToolDefinition.builder().name(tool.name()).description(tool.description())
        .inputSchema(tool.inputSchema().encode()).build();
  }

  static String session(Map<String, Object> toolContext) {
    Object session = toolContext == null ? null : toolContext.get(RatchetToolCallingManager.SESSION_KEY);
    if (!(session instanceof String s) || s.isEmpty()) {
      throw new IllegalArgumentException("the prompt names no Ratchet session: put it in the tool context under '"
          + RatchetToolCallingManager.SESSION_KEY + "'");
    }
    return s;
  }

  private final class Callback implements ToolCallback {
    private final AgentTool tool;
    private final ToolDefinition definition;

    Callback(AgentTool tool) {
      this.tool = tool;
      this.definition = definition(tool);
    }

    @Override
    public ToolDefinition getToolDefinition() {
      return definition;
    }

    @Override
    public String call(String toolInput) {
      return call(toolInput, null);
    }

    @Override
    public String call(String toolInput, ToolContext toolContext) {
      String session = session(toolContext == null ? null : toolContext.getContext());
      Turn turn = new Turn("spring-" + UUID.randomUUID(),
          List.of(RatchetToolCallingManager.toolCall(tool.name(), toolInput, null)));
      return ToolResultText.of(ratchet.run(session, turn).call(0));
    }
  }
}
