package dev.ratchet.connectors.provider.impl;

import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.RetryPolicy;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.function.Function;

/** A provider tool resolved for one identity: every invocation runs as that identity. */
public final class ProviderTool implements Tool {

  private final String name;
  private final String description;
  private final JsonObject schema;
  private final EffectClass effect;
  private final ApprovalRule approval;
  private final Duration timeout;
  private final String source;
  private final String boundTo;
  private final Function<ToolInvocation, Future<ToolResult>> run;

  public ProviderTool(String name, String description, JsonObject schema, EffectClass effect, ApprovalRule approval,
                      Duration timeout, String source, String boundTo, Function<ToolInvocation, Future<ToolResult>> run) {
    this.name = name;
    this.description = description == null ? "" : description;
    this.schema = schema == null ? new JsonObject().put("type", "object") : schema;
    this.effect = effect;
    this.approval = approval;
    this.timeout = timeout;
    this.source = source;
    this.boundTo = boundTo;
    this.run = run;
  }

  /** A tool name that model APIs accept: letters, digits, '_' and '-'. */
  public static String toolName(String slug) {
    return slug.replaceAll("[^A-Za-z0-9_-]", "_");
  }

  public String boundTo() {
    return boundTo;
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
    try {
      return run.apply(invocation);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }

  @Override
  public String toString() {
    return "ProviderTool{" + name + ", " + source + ", " + effect + ", as " + boundTo + "}";
  }
}
