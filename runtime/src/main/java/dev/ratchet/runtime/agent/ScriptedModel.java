package dev.ratchet.runtime.agent;

import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A model that replays a script, for demos and tests: either a fixed list of responses given one
 * per request, or a function of the request. Counts and keeps every request it was asked.
 * <pre>{@code
 * ScriptedModel model = ScriptedModel.of(
 *     ModelResponse.toolCalls(new ToolCall("look_up_order", new JsonObject().put("orderId", "1002"), "c1")),
 *     ModelResponse.text("Order 1002 is open."));
 * }</pre>
 */
public final class ScriptedModel implements ChatModel {

  private final Function<ModelRequest, ModelResponse> script;
  private final String name;
  private final List<ModelRequest> requests = Collections.synchronizedList(new ArrayList<>());

  private ScriptedModel(String name, Function<ModelRequest, ModelResponse> script) {
    this.name = name;
    this.script = script;
  }

  /** Answers the n-th request with the n-th response; a request past the end fails. */
  public static ScriptedModel of(ModelResponse... responses) {
    List<ModelResponse> list = List.of(responses);
    AtomicInteger next = new AtomicInteger();
    return new ScriptedModel("scripted", request -> {
      int i = next.getAndIncrement();
      if (i >= list.size()) {
        throw new IllegalStateException("the script has no response #" + (i + 1) + " (it has " + list.size() + ")");
      }
      return list.get(i);
    });
  }

  /** Answers each request with what the function computes from it; a function that throws fails the request. */
  public static ScriptedModel from(Function<ModelRequest, ModelResponse> script) {
    return new ScriptedModel("scripted", script);
  }

  public ScriptedModel named(String name) {
    ScriptedModel copy = new ScriptedModel(name, script);
    return copy;
  }

  @Override
  public Future<ModelResponse> chat(ModelRequest request) {
    requests.add(request);
    try {
      return Future.succeededFuture(script.apply(request));
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }

  /** How many requests the model was asked. */
  public int calls() {
    return requests.size();
  }

  public List<ModelRequest> requests() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  @Override
  public String describe() {
    return name;
  }
}
