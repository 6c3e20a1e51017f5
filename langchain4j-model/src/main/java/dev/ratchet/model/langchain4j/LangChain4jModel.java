package dev.ratchet.model.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.ratchet.model.langchain4j.impl.ToolSchemaHttpClient;
import dev.ratchet.runtime.Redaction;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.agent.ChatMessage;
import dev.ratchet.runtime.agent.ChatModel;
import dev.ratchet.runtime.agent.ModelRequest;
import dev.ratchet.runtime.agent.ModelResponse;
import dev.ratchet.runtime.agent.ToolSpec;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Any LangChain4j {@code ChatModel} (OpenAI, Anthropic, Gemini, Ollama, ...) as the model of
 * Ratchet's agent loop. LangChain4j's models block, so each request runs on a worker thread.
 * <pre>{@code
 * ChatModel model = LangChain4jModel.of(vertx, OpenAiChatModel.builder().apiKey(key).modelName("gpt-4.1-mini").build());
 * AgentDefinition.builder("support").toolSource(tools).model(model).build();
 * }</pre>
 * Retries belong to the agent's model retry policy: build the LangChain4j model with
 * {@code maxRetries(0)} (as {@link #openAi} does) so that attempts are not multiplied.
 */
public final class LangChain4jModel implements ChatModel {

  private final Vertx vertx;
  private final dev.langchain4j.model.chat.ChatModel model;
  private final String name;

  private LangChain4jModel(Vertx vertx, dev.langchain4j.model.chat.ChatModel model, String name) {
    this.vertx = Objects.requireNonNull(vertx, "vertx");
    this.model = Objects.requireNonNull(model, "model");
    this.name = name;
  }

  public static LangChain4jModel of(Vertx vertx, dev.langchain4j.model.chat.ChatModel model) {
    return new LangChain4jModel(vertx, model, "langchain4j:" + model.getClass().getSimpleName());
  }

  public static LangChain4jModel of(Vertx vertx, dev.langchain4j.model.chat.ChatModel model, String name) {
    return new LangChain4jModel(vertx, model, name);
  }

  /**
   * The HTTP client builder to build a LangChain4j OpenAI-protocol model with, for
   * {@link #of}: LangChain4j leaves a tool's top-level {@code additionalProperties} out of
   * non-strict tools, and requests sent through this client get it (and any other top-level
   * keyword it left out) back from the catalogue's schema, so the model sees the schema exactly.
   * {@link #openAi} uses it already.
   * <pre>{@code
   * LangChain4jModel.of(vertx, OpenAiChatModel.builder().apiKey(key).modelName("gpt-4.1-mini")
   *     .httpClientBuilder(LangChain4jModel.httpClientBuilder()).maxRetries(0).build());
   * }</pre>
   */
  public static dev.langchain4j.http.client.HttpClientBuilder httpClientBuilder() {
    return ToolSchemaHttpClient.builder();
  }

  /**
   * An OpenAI chat model, or any server that speaks the OpenAI chat completions protocol when
   * {@code baseUrl} is given (for example {@code http://localhost:11434/v1} for Ollama).
   */
  public static LangChain4jModel openAi(Vertx vertx, String modelName, String apiKey, String baseUrl, Duration timeout) {
    if (apiKey != null) {
      Redaction.remember(apiKey);
    }
    OpenAiChatModel.OpenAiChatModelBuilder builder = OpenAiChatModel.builder()
        .modelName(modelName)
        .apiKey(apiKey == null || apiKey.isBlank() ? "none" : apiKey)
        .timeout(timeout)
        .maxRetries(0)
        .httpClientBuilder(ToolSchemaHttpClient.builder());
    if (baseUrl != null && !baseUrl.isBlank()) {
      builder.baseUrl(baseUrl);
    }
    return new LangChain4jModel(vertx, builder.build(), "openai:" + modelName);
  }

  @Override
  public Future<ModelResponse> chat(ModelRequest request) {
    ChatRequest chatRequest;
    try {
      chatRequest = toLangChain4j(request);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    Map<String, JsonObject> schemas = new HashMap<>();
    request.tools().forEach(t -> {
      if (t.inputSchema() != null) {
        schemas.put(t.name(), t.inputSchema());
      }
    });
    return vertx.executeBlocking(
        () -> fromLangChain4j(ToolSchemaHttpClient.withSchemas(schemas, () -> model.chat(chatRequest))), false);
  }

  @Override
  public String describe() {
    return name;
  }

  static ChatRequest toLangChain4j(ModelRequest request) {
    List<dev.langchain4j.data.message.ChatMessage> messages = new ArrayList<>();
    for (ChatMessage m : request.messages()) {
      switch (m.role()) {
        case SYSTEM:
          messages.add(SystemMessage.from(m.text()));
          break;
        case USER:
          messages.add(UserMessage.from(m.text()));
          break;
        case ASSISTANT: {
          List<ToolExecutionRequest> calls = new ArrayList<>();
          for (ToolCall c : m.toolCalls()) {
            calls.add(ToolExecutionRequest.builder().id(c.modelCallId()).name(c.name())
                .arguments(c.argumentsText()).build());
          }
          if (calls.isEmpty()) {
            messages.add(AiMessage.from(m.text() == null ? "" : m.text()));
          } else if (m.text() == null || m.text().isBlank()) {
            messages.add(AiMessage.from(calls));
          } else {
            messages.add(AiMessage.from(m.text(), calls));
          }
          break;
        }
        default:
          messages.add(ToolExecutionResultMessage.from(m.toolCallId(), m.toolName(), m.text()));
      }
    }
    ChatRequest.Builder builder = ChatRequest.builder().messages(messages);
    if (!request.tools().isEmpty()) {
      List<ToolSpecification> specs = new ArrayList<>();
      for (ToolSpec t : request.tools()) {
        specs.add(ToolSpecification.builder().name(t.name()).description(t.description())
            .parameters(LangChain4jSchemas.objectSchema(t.inputSchema())).build());
      }
      builder.toolSpecifications(specs);
    }
    return builder.build();
  }

  static ModelResponse fromLangChain4j(ChatResponse response) {
    AiMessage ai = response.aiMessage();
    List<ToolCall> calls = new ArrayList<>();
    if (ai.hasToolExecutionRequests()) {
      for (ToolExecutionRequest r : ai.toolExecutionRequests()) {
        JsonObject args;
        try {
          args = r.arguments() == null || r.arguments().isBlank() ? new JsonObject() : new JsonObject(r.arguments());
        } catch (RuntimeException e) {
          // the call fails validation with a message the model can act on, and its history shows the text it wrote
          calls.add(ToolCall.unparsable(r.name(), r.arguments(), r.id()));
          continue;
        }
        calls.add(new ToolCall(r.name(), args, r.id()));
      }
    }
    return new ModelResponse(ai.text(), calls);
  }
}
