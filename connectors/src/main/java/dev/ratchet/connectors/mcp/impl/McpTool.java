package dev.ratchet.connectors.mcp.impl;

import dev.ratchet.connectors.impl.DescribedTool;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolResult;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.Map;

/** One tool of an MCP server, called through {@code tools/call} on the live session. */
final class McpTool extends DescribedTool {

  /**
   * Sent in the request's {@code _meta} so that a server able to deduplicate can recognise every
   * attempt of the same call.
   */
  static final String IDEMPOTENCY_KEY_META = "dev.ratchet/idempotency-key";

  private final String remoteName;
  private final String title;
  private final Boolean openWorld;
  private final McpCall call;
  private final Runnable checkCredentials;

  McpTool(String name, McpSchema.Tool remote, EffectClass effect, ApprovalRule approval, Duration timeout,
          String source, McpCall call, Runnable checkCredentials) {
    super(name, remote.description() == null ? remote.title() : remote.description(), schemaOf(remote), effect,
        approval, timeout, source);
    this.remoteName = remote.name();
    McpSchema.ToolAnnotations hints = remote.annotations();
    this.title = remote.title() != null ? remote.title() : hints == null ? null : hints.title();
    // MCP's default for a tool that does not say: it may reach an open world
    this.openWorld = hints == null || hints.openWorldHint() == null || hints.openWorldHint();
    this.call = call;
    this.checkCredentials = checkCredentials;
  }

  private static JsonObject schemaOf(McpSchema.Tool remote) {
    JsonObject s = remote.inputSchema() == null ? new JsonObject() : JsonBridge.toJsonObject(remote.inputSchema());
    return s.containsKey("type") ? s : s.put("type", "object");
  }

  @Override
  public String title() {
    return title;
  }

  @Override
  public Boolean openWorld() {
    return openWorld;
  }

  @Override
  public Future<ToolResult> invoke(ToolInvocation invocation) {
    return call.run(invocation, effect, "tools/call", client -> {
      checkCredentials.run();
      // _meta.traceparent carries the trace over any transport, stdio included (docs/OBSERVABILITY.md)
      Map<String, Object> meta = invocation.traceparent() == null
          ? Map.of(IDEMPOTENCY_KEY_META, invocation.idempotencyKey().value())
          : Map.of(IDEMPOTENCY_KEY_META, invocation.idempotencyKey().value(), McpClients.TRACEPARENT,
              invocation.traceparent());
      return client.callTool(new McpSchema.CallToolRequest(remoteName, JsonBridge.toMap(invocation.arguments()), meta));
    }, result -> McpOutcomes.fromCallResult(result));
  }

  @Override
  public String toString() {
    return "McpTool{" + name + ", " + source + ", " + effect + "}";
  }
}
