package dev.ratchet.connectors.provider.impl;

import dev.ratchet.connectors.impl.DescribedTool;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Redaction;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.function.Function;

/** A provider tool resolved for one identity: every invocation runs as that identity. */
public final class ProviderTool extends DescribedTool {

  private final String boundTo;
  private final Function<ToolInvocation, Future<ToolResult>> run;
  private final Function<ToolInvocation, Future<String>> readiness;

  public ProviderTool(String name, String description, JsonObject schema, EffectClass effect, ApprovalRule approval,
                      Duration timeout, String source, String boundTo, Function<ToolInvocation, Future<ToolResult>> run) {
    this(name, description, schema, effect, approval, timeout, source, boundTo, run, null);
  }

  /**
   * @param readiness answers {@link #cannotRun}: why the tool could not run for {@code boundTo}; null
   *     when the provider cannot tell
   */
  public ProviderTool(String name, String description, JsonObject schema, EffectClass effect, ApprovalRule approval,
                      Duration timeout, String source, String boundTo, Function<ToolInvocation, Future<ToolResult>> run,
                      Function<ToolInvocation, Future<String>> readiness) {
    super(name, description, schema, effect, approval, timeout, source);
    this.boundTo = boundTo;
    this.run = run;
    this.readiness = readiness;
  }

  @Override
  public Future<String> cannotRun(ToolInvocation invocation) {
    return readiness == null ? Future.succeededFuture(null) : readiness.apply(invocation);
  }

  /** A tool name that model APIs accept: letters, digits, '_' and '-'. */
  public static String toolName(String slug) {
    return slug.replaceAll("[^A-Za-z0-9_-]", "_");
  }

  public String boundTo() {
    return boundTo;
  }









  @Override
  public Future<ToolResult> invoke(ToolInvocation invocation) {
    try {
      return run.apply(invocation).map(Redaction::scrub);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }

  @Override
  public String toString() {
    return "ProviderTool{" + name + ", " + source + ", " + effect + ", as " + boundTo + "}";
  }
}
