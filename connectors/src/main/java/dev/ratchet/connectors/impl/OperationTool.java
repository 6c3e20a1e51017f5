package dev.ratchet.connectors.impl;

import dev.ratchet.connectors.ConnectorOperation;
import dev.ratchet.connectors.ConnectorTool;
import dev.ratchet.connectors.OperationDefinition;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.Redaction;
import dev.ratchet.runtime.RetryPolicy;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolNotSentException;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.Optional;

/** A {@link ConnectorTool} as the runtime sees it: manifest-driven effect class, timeout, retries and branch outcomes. */
public final class OperationTool implements Tool {

  private final ConnectorTool tool;
  private final ConnectorOperation operation;
  private final OperationDefinition definition;
  private final ArgumentValidator validator;

  public OperationTool(ConnectorTool tool) {
    this.tool = tool;
    this.operation = tool.operation();
    this.definition = operation.definition();
    this.validator = new ArgumentValidator(definition.inputSchema());
  }

  @Override
  public String name() {
    return tool.name();
  }

  @Override
  public String description() {
    return definition.description();
  }

  @Override
  public JsonObject inputSchema() {
    return definition.inputSchema().copy();
  }

  @Override
  public EffectClass effectClass() {
    return definition.effectClass();
  }

  @Override
  public ApprovalRule approvalRule() {
    return tool.approvalRule();
  }

  @Override
  public Duration timeout() {
    return definition.timeout();
  }

  @Override
  public RetryPolicy retryPolicy() {
    return definition.effectiveRetryPolicy();
  }

  @Override
  public String source() {
    return "connector:" + operation.manifest().connectorId() + "/" + operation.connectionName();
  }

  @Override
  public Future<ToolResult> invoke(ToolInvocation invocation) {
    String problem = validator.problem(invocation.arguments());
    if (problem != null) {
      return Future.failedFuture(new ToolNotSentException("invalid arguments for " + name() + ": " + problem));
    }
    Future<ToolResult> result;
    try {
      result = operation.execute(invocation);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    return result.map(r -> classify(definition, r));
  }

  @Override
  public boolean announcesSending() {
    return operation.announcesSending();
  }

  @Override
  public boolean supportsLookup() {
    return operation.supportsLookup();
  }

  @Override
  public Future<Optional<ToolResult>> lookup(ToolInvocation invocation) {
    if (!operation.supportsLookup()) {
      return Tool.super.lookup(invocation);
    }
    return operation.lookup(invocation).map(found -> found.map(r -> classify(definition, r)));
  }

  /**
   * Applies the manifest's outcome for the branch an attempt ended in, and scrubs secrets from the
   * result: a provider may echo the credential it was sent.
   */
  public static ToolResult classify(OperationDefinition definition, ToolResult r) {
    String branch = r.branch() == null ? "unknown" : r.branch();
    Outcome outcome = definition.outcomeOf(branch);
    if (outcome == Outcome.SUCCEEDED) {
      return Redaction.scrub(new ToolResult(Outcome.SUCCEEDED, r.value(), null, branch, false, 0));
    }
    String error = r.error() != null ? r.error() : "operation " + definition.name() + " ended in branch '" + branch + "'";
    return Redaction.scrub(new ToolResult(outcome, null, error, branch, r.retryable(), r.retryAfterMillis()));
  }

  @Override
  public String toString() {
    return "Tool[" + name() + ", " + effectClass() + ", " + source() + "]";
  }
}
