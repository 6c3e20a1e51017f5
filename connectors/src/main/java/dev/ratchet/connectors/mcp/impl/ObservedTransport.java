package dev.ratchet.connectors.mcp.impl;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import reactor.core.publisher.Mono;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The SDK's transport with the two things the SDK's client does not give: the JSON-RPC id of a
 * request (so that a request given up on can be cancelled with {@code notifications/cancelled}),
 * and the fields of {@code tools/list} its model drops ({@code execution.taskSupport}).
 */
final class ObservedTransport implements McpClientTransport {

  /** Reactor context key under which a request's caller leaves a {@link Trace} of its request. */
  static final String TRACE = "dev.ratchet.mcp.trace";

  /** What became of one request on its way out: its JSON-RPC id, and how its sending ended. */
  static final class Trace {
    /** The method traced: the SDK may send other requests (a new session's initialize) on the caller's behalf. */
    final String method;
    volatile Object id;
    /** Completes when sending ended: null when it went through, else why it failed. */
    final CompletableFuture<Throwable> sent = new CompletableFuture<>();

    Trace(String method) {
      this.method = method;
    }
  }

  private final McpClientTransport delegate;
  private final Set<Object> toolListings = ConcurrentHashMap.newKeySet();
  private final Map<String, String> taskSupport = new ConcurrentHashMap<>();

  ObservedTransport(McpClientTransport delegate) {
    this.delegate = delegate;
  }

  /** The {@code execution.taskSupport} of a tool as last listed ({@code forbidden}, {@code optional}, {@code required}), or null. */
  String taskSupport(String tool) {
    return taskSupport.get(tool);
  }

  /** Tells the server that the client gave up on a request, so it can stop working on it (MCP: SHOULD). */
  Mono<Void> cancel(Object requestId, String reason) {
    return delegate.sendMessage(new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION,
        "notifications/cancelled", Map.of("requestId", requestId, "reason", reason)));
  }

  @Override
  public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
    return delegate.connect(in -> handler.apply(in.doOnNext(this::received)));
  }

  @Override
  public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
    if (!(message instanceof McpSchema.JSONRPCRequest request)) {
      return delegate.sendMessage(message);
    }
    if ("tools/list".equals(request.method())) {
      toolListings.add(request.id());
    }
    return Mono.deferContextual(ctx -> {
      Trace trace = ctx.<Trace>getOrEmpty(TRACE).orElse(null);
      if (trace == null || !trace.method.equals(request.method()) || trace.id != null) {
        return delegate.sendMessage(message);
      }
      trace.id = request.id();
      return delegate.sendMessage(message)
          .doOnSuccess(v -> trace.sent.complete(null))
          .doOnError(err -> trace.sent.complete(err))
          .doOnCancel(() -> trace.sent.complete(null));
    });
  }

  private void received(McpSchema.JSONRPCMessage message) {
    if (message instanceof McpSchema.JSONRPCResponse response && toolListings.remove(response.id())
        && response.result() instanceof Map<?, ?> result && result.get("tools") instanceof List<?> tools) {
      for (Object t : tools) {
        if (t instanceof Map<?, ?> tool && tool.get("name") instanceof String name) {
          Object support = tool.get("execution") instanceof Map<?, ?> execution ? execution.get("taskSupport") : null;
          if (support instanceof String s) {
            taskSupport.put(name, s);
          } else {
            taskSupport.remove(name);
          }
        }
      }
    }
  }

  @Override
  public void setExceptionHandler(Consumer<Throwable> handler) {
    delegate.setExceptionHandler(handler);
  }

  @Override
  public Mono<Void> closeGracefully() {
    return delegate.closeGracefully();
  }

  @Override
  public void close() {
    delegate.close();
  }

  @Override
  public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
    return delegate.unmarshalFrom(data, typeRef);
  }

  @Override
  public List<String> protocolVersions() {
    return delegate.protocolVersions();
  }
}
