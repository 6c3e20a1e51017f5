package dev.ratchet.springai;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatModel;

import java.util.Map;

/** The example of docs/ADAPTERS.md: a Spring AI ChatClient whose tool calls Ratchet runs. */
final class SpringAiExample {

  private SpringAiExample() {
  }

  // tag::example[]
  // application.properties:
  //   ratchet.url=http://ratchet:8080
  //   ratchet.agent=shop
  //   ratchet.token=${RATCHET_TOKEN}
  // The auto-configuration gives Spring AI's chat model the RatchetToolCallingManager.
  static String answer(ChatModel chatModel, String sessionId, String question) {
    return ChatClient.create(chatModel).prompt(question)
        .toolContext(Map.of(RatchetToolCallingManager.SESSION_KEY, sessionId))
        .call().content();
  }
  // end::example[]
}
