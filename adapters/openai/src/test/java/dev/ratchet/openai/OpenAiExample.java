package dev.ratchet.openai;

import com.openai.client.OpenAIClient;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionMessage;
import dev.ratchet.runtime.Ratchet;
import dev.ratchet.turns.RatchetTurns;

import java.util.List;

/** The example of docs/ADAPTERS.md: an application's own loop with the OpenAI Java SDK. */
final class OpenAiExample {

  private OpenAiExample() {
  }

  // tag::example[]
  static String answer(OpenAIClient client, Ratchet ratchet, String sessionId, String question) {
    OpenAiTurns turns = new OpenAiTurns(RatchetTurns.embedded(ratchet, "shop", "tenant-1"));
    ChatCompletionCreateParams.Builder params = ChatCompletionCreateParams.builder()
        .model("gpt-4.1-mini").addUserMessage(question);
    turns.tools().forEach(params::addTool);
    while (true) {
      ChatCompletion completion = client.chat().completions().create(params.build());
      ChatCompletionMessage message = completion.choices().get(0).message();
      if (message.toolCalls().orElse(List.of()).isEmpty()) {
        return message.content().orElse("");
      }
      params.addMessage(message);
      // all the calls of this completion as one turn; waits for approvals
      turns.run(sessionId, completion).forEach(params::addMessage);
    }
  }
  // end::example[]
}
