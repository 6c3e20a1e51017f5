package dev.ratchet.connectors.mcp.impl;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import reactor.core.publisher.Mono;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The SDK's transport with the two things the SDK's client does not give: the JSON-RPC id of a
 * request (so that a request given up on can be cancelled with {@code notifications/cancelled}),
 * and the fields of {@code tools/list} its model drops ({@code execution.taskSupport}).
 */
final class ObservedTransport implements McpClientTransport {

  /** Reactor context key under which a request's caller leaves an {@code AtomicReference} for the request's id. */
  static final String REQUEST_ID = "dev.ratchet.mcp.request-id";

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
      ctx.<AtomicReference<Object>>getOrEmpty(REQUEST_ID).ifPresent(ref -> ref.set(request.id()));
      return delegate.sendMessage(message);
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
