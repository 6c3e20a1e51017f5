package dev.ratchet.connectors.slack;

import dev.ratchet.connectors.ConnectorManifest;
import dev.ratchet.connectors.ConnectorOperation;
import dev.ratchet.connectors.OperationDefinition;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.Future;

import java.util.Optional;
import java.util.function.Function;

/** One Slack operation bound to a connection. */
final class SlackOperation implements ConnectorOperation {

  private final ConnectorManifest manifest;
  private final OperationDefinition definition;
  private final String connectionName;
  private final Function<ToolInvocation, Future<ToolResult>> execute;
  private final Function<ToolInvocation, Future<Optional<ToolResult>>> lookup;

  SlackOperation(ConnectorManifest manifest, String name, String connectionName,
                 Function<ToolInvocation, Future<ToolResult>> execute,
                 Function<ToolInvocation, Future<Optional<ToolResult>>> lookup) {
    this.manifest = manifest;
    this.definition = manifest.operation(name);
    this.connectionName = connectionName;
    this.execute = execute;
    this.lookup = lookup;
  }

  @Override
  public ConnectorManifest manifest() {
    return manifest;
  }

  @Override
  public OperationDefinition definition() {
    return definition;
  }

  @Override
  public String connectionName() {
    return connectionName;
  }

  @Override
  public Future<ToolResult> execute(ToolInvocation invocation) {
    return execute.apply(invocation);
  }

  @Override
  public boolean supportsLookup() {
    return lookup != null;
  }

  @Override
  public Future<Optional<ToolResult>> lookup(ToolInvocation invocation) {
    return lookup == null ? ConnectorOperation.super.lookup(invocation) : lookup.apply(invocation);
  }

  @Override
  public String toString() {
    return "slack/" + connectionName + "." + definition.name();
  }
}
