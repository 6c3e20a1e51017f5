package dev.ratchet.connectors.mcp.impl;

import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Redaction;
import dev.ratchet.runtime.ToolNotSentException;
import dev.ratchet.runtime.ToolResult;
import io.modelcontextprotocol.client.transport.McpHttpClientTransportAuthorizationException;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpTransportSessionNotFoundException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;

import java.net.ConnectException;
import java.nio.channels.UnresolvedAddressException;

/**
 * Turns what the SDK reports for a request into the runtime's outcomes. The line that matters is
 * between "the request provably never reached the server" (connection refused, unknown session)
 * and everything else, which may have reached it.
 */
final class McpOutcomes {

  /** JSON-RPC "internal error": the server failed while handling, possibly half-way through a write. */
  private static final int INTERNAL_ERROR = -32603;

  private McpOutcomes() {
  }

  static boolean neverSent(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof ConnectException || c instanceof UnresolvedAddressException
          || c instanceof McpTransportSessionNotFoundException || c instanceof ToolNotSentException
          // the server refused the credentials before looking at the request
          || c instanceof McpHttpClientTransportAuthorizationException) {
        return true;
      }
    }
    return false;
  }

  /** The server answered that it has no such session (404, or 400 from some servers): it processed nothing. */
  static boolean sessionNotFound(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof McpTransportSessionNotFoundException) {
        return true;
      }
    }
    return false;
  }

  /**
   * The SDK ended the session under a pending request (its re-initialisation after an unknown
   * session, which can itself fail): a fresh client is surer than what is left of it.
   */
  static boolean sessionTerminated(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if ("MCP session with server terminated".equals(c.getMessage())) {
        return true;
      }
    }
    return false;
  }

  /** The server stopped answering while a call was in flight: the session is of no more use. */
  static boolean serverGone(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof McpLiveness.ServerGoneException) {
        return true;
      }
    }
    return false;
  }

  static McpError mcpError(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof McpError e) {
        return e;
      }
    }
    return null;
  }

  /** A JSON-RPC error answer from the server: it did respond, so the outcome is known unless it failed internally. */
  static ToolResult fromMcpError(McpError error, EffectClass effect) {
    String message = Redaction.scrub(error.getJsonRpcError() == null ? String.valueOf(error.getMessage())
        : error.getJsonRpcError().message());
    int code = error.getJsonRpcError() == null ? INTERNAL_ERROR : error.getJsonRpcError().code();
    if (code == INTERNAL_ERROR && effect.isWrite()) {
      return ToolResult.uncertain("the MCP server failed while handling the call: " + message);
    }
    return ToolResult.rejected("the MCP server refused the call: " + message);
  }

  static ToolResult fromCallResult(McpSchema.CallToolResult result) {
    Object value = valueOf(result);
    if (Boolean.TRUE.equals(result.isError())) {
      String text = value instanceof String s ? s : String.valueOf(value);
      return ToolResult.rejected(Redaction.scrub("the tool reported an error: " + text));
    }
    return ToolResult.success(Redaction.scrubValue(value));
  }

  /**
   * Structured content when the server gave it, plain text when every part is text, else the content
   * parts as MCP defines them, each with its {@code type} ({@code text}, {@code image}, {@code audio},
   * {@code resource}, {@code resource_link}).
   */
  static Object valueOf(McpSchema.CallToolResult result) {
    if (result.structuredContent() != null) {
      return JsonBridge.toVertx(result.structuredContent());
    }
    if (result.content() == null || result.content().isEmpty()) {
      return null;
    }
    if (result.content().stream().allMatch(c -> c instanceof McpSchema.TextContent)) {
      StringBuilder sb = new StringBuilder();
      for (McpSchema.Content c : result.content()) {
        sb.append(sb.length() > 0 ? "\n" : "").append(((McpSchema.TextContent) c).text());
      }
      return sb.toString();
    }
    JsonArray parts = new JsonArray();
    result.content().forEach(c -> parts.add(JsonBridge.contentPart(c)));
    return parts;
  }

  static Future<ToolResult> notSent(String server, String why) {
    return notSent(server, why, 0);
  }

  /** Not sent; another attempt waits {@code retryAfterMillis}, when the server could be back. */
  static Future<ToolResult> notSent(String server, String why, long retryAfterMillis) {
    return Future.failedFuture(new ToolNotSentException(
        CallResult.NOT_RUN_PREFIX + ": MCP server '" + server + "' " + why, retryAfterMillis));
  }

  /** Nothing accepted the connection: a server not started yet (or gone), never one that answered. */
  static boolean stillStarting(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof McpHttpClientTransportAuthorizationException) {
        return false;
      }
      if (c instanceof ConnectException) {
        return true;
      }
    }
    return false;
  }

  /** The server refused the credentials (HTTP 401 or 403) before it looked at the request. */
  static boolean credentialsRefused(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof McpHttpClientTransportAuthorizationException) {
        return true;
      }
    }
    return false;
  }
}
