package dev.ratchet.connectors.mcp.impl;

import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.RetryPolicy;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolResult;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.Map;

/** One tool of an MCP server, called through {@code tools/call} on the live session. */
final class McpTool implements Tool {

  /**
   * Sent in the request's {@code _meta} so that a server able to deduplicate can recognise every
   * attempt of the same call.
   */
  static final String IDEMPOTENCY_KEY_META = "dev.ratchet/idempotency-key";

  private final String name;
  private final String remoteName;
  private final String description;
  private final JsonObject schema;
  private final EffectClass effect;
  private final ApprovalRule approval;
  private final Duration timeout;
  private final String source;
  private final McpCall call;
  private final Runnable checkCredentials;
  private final Redactor redactor;

  McpTool(String name, McpSchema.Tool remote, EffectClass effect, ApprovalRule approval, Duration timeout,
          String source, McpCall call, Runnable checkCredentials, Redactor redactor) {
    this.name = name;
    this.remoteName = remote.name();
    this.description = remote.description() == null ? (remote.title() == null ? "" : remote.title()) : remote.description();
    JsonObject s = remote.inputSchema() == null ? new JsonObject() : JsonBridge.toJsonObject(remote.inputSchema());
    this.schema = s.containsKey("type") ? s : s.put("type", "object");
    this.effect = effect;
    this.approval = approval;
    this.timeout = timeout;
    this.source = source;
    this.call = call;
    this.checkCredentials = checkCredentials;
    this.redactor = redactor;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String description() {
    return description;
  }

  @Override
  public JsonObject inputSchema() {
    return schema;
  }

  @Override
  public EffectClass effectClass() {
    return effect;
  }

  @Override
  public ApprovalRule approvalRule() {
    return approval;
  }

  @Override
  public Duration timeout() {
    return timeout;
  }

  @Override
  public RetryPolicy retryPolicy() {
    return effect == EffectClass.NON_IDEMPOTENT_WRITE ? RetryPolicy.NONE : RetryPolicy.DEFAULT;
  }

  @Override
  public String source() {
    return source;
  }

  @Override
  public Future<ToolResult> invoke(ToolInvocation invocation) {
    return call.run(invocation, effect, client -> {
      checkCredentials.run();
      Map<String, Object> meta = Map.of(IDEMPOTENCY_KEY_META, invocation.idempotencyKey().value());
      return client.callTool(new McpSchema.CallToolRequest(remoteName, JsonBridge.toMap(invocation.arguments()), meta));
    }, result -> McpOutcomes.fromCallResult(result, redactor));
  }

  @Override
  public String toString() {
    return "McpTool{" + name + ", " + source + ", " + effect + "}";
  }
}
