package dev.ratchet.connectors.mcp.impl;

import dev.ratchet.connectors.mcp.McpServerConfig;
import dev.ratchet.connectors.mcp.McpTransportKind;
import dev.ratchet.runtime.Redaction;
import dev.ratchet.runtime.ToolInvocation;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds the SDK's async client and transport for a server configuration. */
final class McpClients {

  private static final Logger LOG = LoggerFactory.getLogger(McpClients.class);

  /** The W3C header, and the key of the transport context that carries it to the request. */
  static final String TRACEPARENT = "traceparent";

  private McpClients() {
  }

  /** What the HTTP transport reads while it sends a request made for {@code invocation}: its traceparent. */
  static McpTransportContext transportContext(ToolInvocation invocation) {
    return invocation == null || invocation.traceparent() == null ? McpTransportContext.EMPTY
        : McpTransportContext.create(Map.of(TRACEPARENT, invocation.traceparent()));
  }

  /** A client and the stdio transport behind it (null for HTTP), so the caller can watch the process. */
  record Created(McpAsyncClient client, ObservedTransport transport, WatchedStdioTransport stdio) {
  }

  /** Reveals secrets, so it must run where a {@code ToolNotSentException} can be reported as "did not run". */
  static Created create(McpServerConfig config, Runnable toolsChanged) {
    McpClientTransport transport;
    WatchedStdioTransport stdio = null;
    if (config.transport() == McpTransportKind.STDIO) {
      Map<String, String> env = new LinkedHashMap<>(config.plainEnv());
      config.env().forEach((k, secret) -> env.put(k, secret.reveal()));
      List<String> command = new ArrayList<>();
      command.add(config.command());
      command.addAll(config.args());
      String server = config.name();
      stdio = new WatchedStdioTransport(command, env, config.inheritEnvironment(),
          line -> LOG.info("[mcp:{}] {}", server, Redaction.scrub(line)));
      transport = stdio;
    } else {
      URI uri = URI.create(config.url());
      String base = uri.getScheme() + "://" + uri.getRawAuthority();
      String endpoint = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/mcp" : uri.getRawPath();
      transport = HttpClientStreamableHttpTransport.builder(base)
          .endpoint(endpoint)
          .connectTimeout(config.requestTimeout())
          // revealed per request, so a rotated credential is picked up without reconnecting
          .httpRequestCustomizer((builder, method, target, body, context) -> {
            config.plainHeaders().forEach(builder::setHeader);
            config.headers().forEach((name, secret) -> builder.setHeader(name, secret.reveal()));
            if (context != null && context.get(TRACEPARENT) instanceof String traceparent) {
              // the provider's own spans join the call's trace (docs/OBSERVABILITY.md)
              builder.setHeader(TRACEPARENT, traceparent);
            }
          })
          .build();
    }
    ObservedTransport observed = new ObservedTransport(transport);
    // the SDK bounds initialize by its request timeout too: that one is the longer of the two, and
    // every other request carries its own bound (the call's deadline, requestTimeout for listing and pings)
    Duration longest = config.startupTimeout().compareTo(config.requestTimeout()) > 0 ? config.startupTimeout()
        : config.requestTimeout();
    McpAsyncClient client = McpClient.async(observed)
        .requestTimeout(longest)
        .initializationTimeout(config.startupTimeout())
        .clientInfo(new McpSchema.Implementation("ratchet", "0.1.0"))
        .toolsChangeConsumer(tools -> reactor.core.publisher.Mono.fromRunnable(toolsChanged))
        .build();
    return new Created(client, observed, stdio);
  }
}
