package dev.ratchet.connectors.mcp.impl;

import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import reactor.core.publisher.Mono;

import java.lang.reflect.Field;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The SDK's stdio transport, watched from the moment its process starts: {@link #exited()}
 * completes with the exit code as soon as the process ends, also during {@code initialize}, where
 * the SDK itself would only notice when the request timeout ran out.
 */
class WatchedStdioTransport extends StdioClientTransport {

  private final CompletableFuture<Integer> exited = new CompletableFuture<>();

  WatchedStdioTransport(ServerParameters params) {
    super(params, McpJsonDefaults.getMapper());
  }

  /** Completes with the process's exit code (-1 when it cannot be read) once the process has ended. */
  CompletableFuture<Integer> exited() {
    return exited;
  }

  @Override
  public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
    return super.connect(handler).then(Mono.fromRunnable(this::watch));
  }

  private void watch() {
    Process process = process();
    if (process == null) {
      // no handle: fall back on the SDK's own wait, without the exit code
      Thread t = new Thread(() -> {
        try {
          awaitForExit();
        } catch (RuntimeException ignored) {
          // gone either way
        }
        exited.complete(-1);
      }, "mcp-exit-watch");
      t.setDaemon(true);
      t.start();
      return;
    }
    process.onExit().whenComplete((p, err) -> exited.complete(err == null ? p.exitValue() : -1));
  }

  /** The SDK keeps the process to itself; it is read once, right after it started. */
  private Process process() {
    try {
      Field f = StdioClientTransport.class.getDeclaredField("process");
      f.setAccessible(true);
      return (Process) f.get(this);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
