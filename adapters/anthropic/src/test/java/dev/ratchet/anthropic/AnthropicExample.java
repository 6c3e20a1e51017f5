package dev.ratchet.anthropic;

import com.anthropic.client.AnthropicClient;
import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.StopReason;
import dev.ratchet.runtime.Ratchet;
import dev.ratchet.turns.RatchetTurns;

import java.util.stream.Collectors;

/** The example of docs/ADAPTERS.md: an application's own loop with the Anthropic Java SDK. */
final class AnthropicExample {

  private AnthropicExample() {
  }

  // tag::example[]
  static String answer(AnthropicClient client, Ratchet ratchet, String sessionId, String question) {
    AnthropicTurns turns = new AnthropicTurns(RatchetTurns.embedded(ratchet, "shop", "tenant-1"));
    MessageCreateParams.Builder params = MessageCreateParams.builder()
        .model("claude-sonnet-4-5").maxTokens(1024).addUserMessage(question);
    turns.tools().forEach(params::addTool);
    while (true) {
      Message message = client.messages().create(params.build());
      if (!message.stopReason().map(StopReason.TOOL_USE::equals).orElse(false)) {
        return message.content().stream().filter(ContentBlock::isText)
            .map(block -> block.asText().text()).collect(Collectors.joining());
      }
      params.addMessage(message);
      // all the tool_use blocks of this message as one turn; waits for approvals
      params.addMessage(turns.run(sessionId, message));
    }
  }
  // end::example[]
}
