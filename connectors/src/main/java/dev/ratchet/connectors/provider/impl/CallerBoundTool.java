package dev.ratchet.connectors.provider.impl;

import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.RetryPolicy;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolNotSentException;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

/**
 * A provider tool as the catalogue shows it, which picks the identity it runs as at each call: the
 * runnable tool comes from {@code forCaller} with the invocation's caller id. When that fails
 * (no caller and no shared identity, a connection of someone else, the provider unreachable while
 * resolving), nothing was sent to the provider, so the call fails as "did not run".
 */
public final class CallerBoundTool implements Tool {

  private final Tool described;
  private final Function<String, Future<Tool>> forCaller;

  /**
   * @param described gives the name, schema, effect class and approval; it is never run
   * @param forCaller the tool bound to a caller id (null: the session has no caller)
   */
  public CallerBoundTool(Tool described, Function<String, Future<Tool>> forCaller) {
    this.described = described;
    this.forCaller = forCaller;
  }

  @Override
  public String name() {
    return described.name();
  }

  @Override
  public String description() {
    return described.description();
  }

  @Override
  public JsonObject inputSchema() {
    return described.inputSchema();
  }

  @Override
  public EffectClass effectClass() {
    return described.effectClass();
  }

  @Override
  public ApprovalRule approvalRule() {
    return described.approvalRule();
  }

  @Override
  public Duration timeout() {
    return described.timeout();
  }

  @Override
  public RetryPolicy retryPolicy() {
    return described.retryPolicy();
  }

  @Override
  public String source() {
    return described.source();
  }

  @Override
  public Future<ToolResult> invoke(ToolInvocation invocation) {
    return bound(invocation).compose(tool -> tool.invoke(invocation));
  }

  @Override
  public boolean supportsLookup() {
    return described.supportsLookup();
  }

  /** The bound tool's answer; a caller it cannot bind to is left to the call, which says why it did not run. */
  @Override
  public Future<String> cannotRun(ToolInvocation invocation) {
    return bound(invocation).compose(tool -> tool.cannotRun(invocation)).otherwise((String) null);
  }

  @Override
  public Future<Optional<ToolResult>> lookup(ToolInvocation invocation) {
    return bound(invocation).compose(tool -> tool.lookup(invocation));
  }

  private Future<Tool> bound(ToolInvocation invocation) {
    Future<Tool> tool;
    try {
      tool = forCaller.apply(invocation.callerId());
    } catch (RuntimeException e) {
      tool = Future.failedFuture(e);
    }
    return tool.recover(err -> Future.failedFuture(err instanceof ToolNotSentException ? err
        : new ToolNotSentException(String.valueOf(err.getMessage()), err)));
  }

  @Override
  public String toString() {
    return "CallerBoundTool{" + described.name() + ", " + described.source() + "}";
  }
}
