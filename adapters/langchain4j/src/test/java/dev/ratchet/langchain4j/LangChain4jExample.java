package dev.ratchet.langchain4j;

import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.ratchet.runtime.Ratchet;
import dev.ratchet.turns.RatchetTurns;

import java.util.List;

/** The example of docs/ADAPTERS.md: an AiServices assistant whose tools are a Ratchet agent's. */
final class LangChain4jExample {

  private LangChain4jExample() {
  }

  // tag::example[]
  interface Assistant {
    String chat(@MemoryId String sessionId, @UserMessage String text);
  }

  static Assistant assistant(Ratchet ratchet, String openAiUrl, String apiKey) {
    RatchetToolProvider tools = RatchetToolProvider.create(RatchetTurns.embedded(ratchet, "shop", "tenant-1"));
    return AiServices.builder(Assistant.class)
        .chatModel(OpenAiChatModel.builder().baseUrl(openAiUrl).apiKey(apiKey).modelName("gpt-4.1-mini")
            .listeners(List.of(tools.listener()))   // so that one response's calls run as one turn
            .build())
        .chatMemoryProvider(sessionId -> MessageWindowChatMemory.withMaxMessages(50))
        .toolProvider(tools)
        .build();
  }
  // end::example[]
}
