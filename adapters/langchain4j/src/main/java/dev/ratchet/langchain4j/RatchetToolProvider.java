package dev.ratchet.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.model.chat.listener.ChatModelListener;
import dev.langchain4j.model.chat.listener.ChatModelResponseContext;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.service.tool.ToolProviderRequest;
import dev.langchain4j.service.tool.ToolProviderResult;
import dev.ratchet.model.langchain4j.LangChain4jSchemas;
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
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The tools of a Ratchet agent for LangChain4j's {@code AiServices}. AiServices hands a tool executor
 * one call at a time; to run all the calls of one {@link AiMessage} as one Ratchet turn (writes in
 * order, later writes skipped after a failure), register {@link #listener()} on the chat model: it
 * sees every model response, and the first call of a response submits them all. The turn id is the
 * response's id ({@link TurnIds}), so an application that runs the same response again after a crash
 * runs no write twice. The Ratchet session is the chat memory id of the invocation.
 * <pre>{@code
 * RatchetToolProvider tools = RatchetToolProvider.create(RatchetTurns.embedded(ratchet, "shop", "tenant-1"));
 * ChatModel model = OpenAiChatModel.builder()...listeners(List.of(tools.listener())).build();
 * Assistant assistant = AiServices.builder(Assistant.class).chatModel(model).toolProvider(tools).build();
 * }</pre>
 * A call whose response the listener did not see runs as a turn of its own, named after its call id.
 */
public final class RatchetToolProvider implements ToolProvider {

  /** How long a response seen stays known when its calls are never executed (another service's model, say). */
  private static final long FORGET_AFTER_MILLIS = 3_600_000;

  /** Responses seen and not yet run, by the id of each of their calls. */
  private final Map<String, PendingTurn> pending = new ConcurrentHashMap<>();
  private final RatchetTurns ratchet;
  private final Function<Object, String> sessionOf;

  private RatchetToolProvider(RatchetTurns ratchet, Function<Object, String> sessionOf) {
    this.ratchet = ratchet;
    this.sessionOf = sessionOf;
  }

  /** Sessions named after the invocation's chat memory id (made an id as {@link TurnIds#sanitize} does). */
  public static RatchetToolProvider create(RatchetTurns ratchet) {
    return new RatchetToolProvider(ratchet, memoryId -> TurnIds.sanitize(String.valueOf(memoryId)));
  }

  /** Sessions named by {@code sessionOf} from the invocation's chat memory id. */
  public static RatchetToolProvider create(RatchetTurns ratchet, Function<Object, String> sessionOf) {
    return new RatchetToolProvider(ratchet, Objects.requireNonNull(sessionOf, "sessionOf"));
  }

  /** The listener to register on the chat model, so that the calls of one response run as one turn. */
  public ChatModelListener listener() {
    return new ChatModelListener() {
      @Override
      public void onResponse(ChatModelResponseContext context) {
        seen(context.chatResponse());
      }
    };
  }

  @Override
  public ToolProviderResult provideTools(ToolProviderRequest request) {
    ToolProviderResult.Builder result = ToolProviderResult.builder();
    ToolExecutor executor = new Executor();
    for (AgentTool tool : ratchet.toolList()) {
      result.add(ToolSpecification.builder().name(tool.name()).description(tool.description())
          .parameters(LangChain4jSchemas.objectSchema(tool.inputSchema())).build(), executor);
    }
    return result.build();
  }

  /** Remembers a response with tool calls until its calls are executed. */
  void seen(ChatResponse response) {
    AiMessage message = response.aiMessage();
    if (message == null || !message.hasToolExecutionRequests()) {
      return;
    }
    List<ToolExecutionRequest> requests = message.toolExecutionRequests();
    if (requests.stream().anyMatch(r -> r.id() == null || r.id().isEmpty())) {
      return;
    }
    long now = System.currentTimeMillis();
    pending.values().removeIf(t -> now - t.seenAt > FORGET_AFTER_MILLIS);
    PendingTurn turn = new PendingTurn(turn(response.id(), requests), requests.stream().map(ToolExecutionRequest::id).toList(),
        now);
    requests.forEach(r -> pending.put(r.id(), turn));
  }

  /** The turn of a response: its tool execution requests in order, named after the response's id. */
  public static Turn turn(String responseId, List<ToolExecutionRequest> requests) {
    List<ToolCall> calls = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    for (ToolExecutionRequest r : requests) {
      ids.add(r.id());
      calls.add(toolCall(r));
    }
    return new Turn(TurnIds.of(responseId, ids), calls);
  }

  private static ToolCall toolCall(ToolExecutionRequest r) {
    String modelCallId = r.id() == null || r.id().isEmpty() ? null : TurnIds.sanitize(r.id());
    String text = r.arguments();
    try {
      if (Json.decodeValue(text == null || text.isBlank() ? "{}" : text) instanceof JsonObject arguments) {
        return new ToolCall(r.name(), arguments, modelCallId);
      }
    } catch (DecodeException e) {
      // kept as written: the call fails validation and the model reads why
    }
    return ToolCall.unparsable(r.name(), text, modelCallId);
  }

  private final class Executor implements ToolExecutor {

    @Override
    public String execute(ToolExecutionRequest request, Object memoryId) {
      return run(request, memoryId).resultText();
    }

    @Override
    public ToolExecutionResult executeWithContext(ToolExecutionRequest request, InvocationContext context) {
      return run(request, context.chatMemoryId());
    }

    private ToolExecutionResult run(ToolExecutionRequest request, Object memoryId) {
      String session = sessionOf.apply(memoryId);
      PendingTurn turn = request.id() == null ? null : pending.get(request.id());
      CallResult call;
      if (turn == null) {
        Turn single = new Turn(TurnIds.of(null, List.of(request.id() == null ? request.name() : request.id())),
            List.of(toolCall(request)));
        call = ratchet.run(session, single).call(0);
      } else {
        int index = turn.indexOf(request.id());
        call = turn.result(ratchet, session).call(index);
        if (turn.answered()) {
          turn.requestIds.forEach(pending::remove);
        }
      }
      return ToolExecutionResult.builder().isError(ToolResultText.isError(call)).resultText(ToolResultText.of(call))
          .build();
    }
  }

  /** One response's turn, submitted by the first of its calls to run and answered to each. */
  private static final class PendingTurn {
    final Turn turn;
    final List<String> requestIds;
    final long seenAt;
    private int answered;
    private TurnResult result;

    PendingTurn(Turn turn, List<String> requestIds, long seenAt) {
      this.turn = turn;
      this.requestIds = requestIds;
      this.seenAt = seenAt;
    }

    int indexOf(String requestId) {
      return requestIds.indexOf(requestId);
    }

    synchronized TurnResult result(RatchetTurns ratchet, String session) {
      if (result == null) {
        result = ratchet.run(session, turn);
      }
      answered++;
      return result;
    }

    synchronized boolean answered() {
      return answered >= requestIds.size();
    }
  }
}
