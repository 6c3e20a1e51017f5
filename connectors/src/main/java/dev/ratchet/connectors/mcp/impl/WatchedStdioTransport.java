package dev.ratchet.connectors.mcp.impl;

import dev.ratchet.host.ChildEnvironment;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The stdio transport of an MCP server whose process Ratchet starts and owns: it speaks the
 * protocol's newline-delimited JSON-RPC on the process's stdin and stdout, passes stderr lines on,
 * and {@link #exited()} completes with the exit code as soon as the process ends, also during
 * {@code initialize}, where a client would otherwise only notice when the request timeout ran out.
 * Unless told to inherit it, the process starts from a minimal environment
 * ({@link ChildEnvironment}), so that one server cannot read another's credentials.
 */
final class WatchedStdioTransport implements McpClientTransport {

  private static final Logger LOG = LoggerFactory.getLogger(WatchedStdioTransport.class);
  /** The longest message read from a server, as the SDK's own stdio transport bounds it. */
  private static final int MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
  private static final Duration TERM_GRACE = Duration.ofSeconds(5);

  private final List<String> command;
  private final Map<String, String> env;
  private final boolean inheritEnvironment;
  private final Consumer<String> stderr;
  private final McpJsonMapper json = McpJsonDefaults.getMapper();
  private final CompletableFuture<Integer> exited = new CompletableFuture<>();
  /** Writes to stdin in order, off the callers' threads: a pipe's write blocks while the server does not read. */
  private final ExecutorService writer = Executors.newSingleThreadExecutor(daemon("mcp-stdio-out"));
  /** The process once started: messages sent before that wait for it, in order, on the writer. */
  private final CompletableFuture<Process> process = new CompletableFuture<>();
  private volatile boolean closing;

  WatchedStdioTransport(List<String> command, Map<String, String> env, boolean inheritEnvironment,
                        Consumer<String> stderr) {
    this.command = List.copyOf(command);
    this.env = Map.copyOf(env);
    this.inheritEnvironment = inheritEnvironment;
    this.stderr = stderr;
  }

  /** Completes with the process's exit code once the process has ended. */
  CompletableFuture<Integer> exited() {
    return exited;
  }

  @Override
  public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
    return Mono.<Void>fromRunnable(() -> start(handler)).subscribeOn(Schedulers.boundedElastic());
  }

  private void start(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
    ProcessBuilder builder = inheritEnvironment ? new ProcessBuilder() : ChildEnvironment.minimal(new ProcessBuilder());
    builder.command(command).environment().putAll(env);
    Process started;
    try {
      started = builder.start();
    } catch (IOException e) {
      IllegalStateException failed = new IllegalStateException("Failed to start process with command: " + command, e);
      process.completeExceptionally(failed);
      throw failed;
    }
    if (!process.complete(started)) {
      // closed while it was starting
      started.destroyForcibly();
      throw new IllegalStateException("the MCP server connection was closed while its process started");
    }
    started.onExit().whenComplete((p, err) -> exited.complete(err == null ? p.exitValue() : -1));
    daemon("mcp-stdio-in").newThread(() -> readMessages(started.getInputStream(), handler)).start();
    daemon("mcp-stdio-err").newThread(() -> readErrors(started.getErrorStream())).start();
  }

  private void readMessages(InputStream in, Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
    try (in) {
      for (String line = StdioLines.read(in, MAX_MESSAGE_BYTES); line != null && !closing;
           line = StdioLines.read(in, MAX_MESSAGE_BYTES)) {
        if (line.isBlank()) {
          continue;
        }
        McpSchema.JSONRPCMessage message;
        try {
          message = McpSchema.deserializeJsonRpcMessage(json, line);
        } catch (IOException | RuntimeException e) {
          // a server that writes anything but JSON-RPC on stdout breaks the protocol: stop reading it
          LOG.warn("MCP server {} wrote a line that is not a JSON-RPC message; its output is no longer read",
              command.get(0));
          return;
        }
        handler.apply(Mono.just(message)).subscribe(m -> { }, err -> LOG.debug("MCP message handling failed", err));
      }
    } catch (IOException e) {
      if (!closing) {
        LOG.debug("MCP server {}: stdout ended: {}", command.get(0), e.toString());
      }
    }
  }

  private void readErrors(InputStream err) {
    try (err) {
      for (String line = StdioLines.read(err, MAX_MESSAGE_BYTES); line != null; line = StdioLines.read(err, MAX_MESSAGE_BYTES)) {
        stderr.accept(line);
      }
    } catch (IOException e) {
      // the process is gone
    }
  }

  @Override
  public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
    if (closing || process.isCompletedExceptionally()) {
      return Mono.error(new IllegalStateException("the MCP server process is not running"));
    }
    try {
      writer.execute(() -> write(message));
      return Mono.empty();
    } catch (RejectedExecutionException e) {
      return Mono.error(new IllegalStateException("the MCP server process is not running"));
    }
  }

  private void write(McpSchema.JSONRPCMessage message) {
    OutputStream stdin;
    try {
      stdin = process.get().getOutputStream();
    } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
      // closed, or the process never started: the connect attempt reports that
      return;
    }
    try {
      // messages are delimited by newlines and must contain none (MCP stdio transport)
      String line = json.writeValueAsString(message).replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n");
      stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      stdin.flush();
    } catch (IOException e) {
      if (!closing) {
        LOG.debug("MCP server {}: write to stdin failed: {}", command.get(0), e.toString());
      }
    }
  }

  /** Ends the process: SIGTERM, then SIGKILL when it has not exited within a few seconds. */
  @Override
  public Mono<Void> closeGracefully() {
    return Mono.<Void>fromRunnable(() -> {
      closing = true;
      writer.shutdownNow();
      Process p = process.getNow(null);
      if (p == null) {
        process.completeExceptionally(new IllegalStateException("closed before the MCP server process started"));
        p = process.getNow(null);
      }
      if (p == null) {
        return;
      }
      p.destroy();
      try {
        if (!p.waitFor(TERM_GRACE.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
          p.destroyForcibly();
        }
      } catch (InterruptedException e) {
        p.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }).subscribeOn(Schedulers.boundedElastic());
  }

  @Override
  public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
    return json.convertValue(data, typeRef);
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
