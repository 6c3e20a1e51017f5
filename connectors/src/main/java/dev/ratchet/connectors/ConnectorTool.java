package dev.ratchet.connectors;

import dev.ratchet.connectors.impl.ToolNames;
import dev.ratchet.connectors.impl.OperationTool;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.Tool;
import io.vertx.core.json.JsonObject;

import java.util.Objects;
import java.util.function.Predicate;

/**
 * An operation the application offers to agents as a tool named {@code <connector>_<operation>}
 * (for example {@code slack_post_thread_reply}; a name over 64 characters is shortened, see
 * {@link ToolNames}), or by the name it is {@link #named given}. Approval defaults to the manifest
 * ({@code agent.approval: recommended} asks, anything else runs without asking); the application
 * may override it with a boolean or a predicate over the arguments. The effect class always comes
 * from the manifest.
 */
public final class ConnectorTool {

  private final ConnectorOperation operation;
  private final ApprovalRule approvalOverride;
  private final String name;

  private ConnectorTool(ConnectorOperation operation, ApprovalRule approvalOverride, String name) {
    this.operation = Objects.requireNonNull(operation, "operation");
    this.approvalOverride = approvalOverride;
    this.name = name;
  }

  public static ConnectorTool connectorTool(ConnectorOperation operation) {
    return new ConnectorTool(operation, null, null);
  }

  /** The same tool under another name: 1-64 of the characters {@code a-z A-Z 0-9 _ -}. */
  public ConnectorTool named(String toolName) {
    if (!ToolNames.valid(toolName)) {
      throw new IllegalArgumentException("tool name '" + toolName + "' is not 1-64 of the characters a-z A-Z 0-9 _ -");
    }
    return new ConnectorTool(operation, approvalOverride, toolName);
  }

  /** Always ask ({@code true}) or never ask ({@code false}), whatever the manifest recommends. */
  public ConnectorTool requireApproval(boolean required) {
    return new ConnectorTool(operation, (required ? ApprovalRule.always() : ApprovalRule.never()).withSource("policy"),
        name);
  }

  /** Ask when the predicate holds for a call's arguments; a predicate that throws asks too. */
  public ConnectorTool requireApprovalWhen(Predicate<JsonObject> predicate) {
    return new ConnectorTool(operation, ApprovalRule.when(predicate).withSource("predicate"), name);
  }

  /** Approval by the given rule, whatever the manifest recommends (for example {@link ApprovalRule#whenMatches}). */
  public ConnectorTool approval(ApprovalRule rule) {
    return new ConnectorTool(operation, Objects.requireNonNull(rule, "rule"), name);
  }

  public ConnectorOperation operation() {
    return operation;
  }

  public String name() {
    return name != null ? name : ToolNames.toolName(operation.manifest().connectorId(), operation.definition().name());
  }

  public ApprovalRule approvalRule() {
    if (approvalOverride != null) {
      return approvalOverride;
    }
    return operation.definition().agent().approvalRecommended()
        ? ApprovalRule.always().withSource("manifest") : ApprovalRule.never();
  }

  /** Whether the manifest lets agents be offered this operation ({@code agent.exposed: true}). */
  public boolean isExposed() {
    return operation.definition().agent().exposed();
  }

  /** The runtime tool; fails when the manifest does not expose the operation to agents. */
  public Tool toTool() {
    if (!isExposed()) {
      throw new IllegalArgumentException("connector '" + operation.manifest().connectorId() + "' operation '"
          + operation.definition().name() + "' is not exposed to agents (its manifest " + operation.manifest().origin()
          + " lacks agent.exposed: true)");
    }
    if (!ToolNames.valid(name())) {
      throw new IllegalArgumentException("tool name '" + name() + "' is not 1-64 of the characters a-z A-Z 0-9 _ -");
    }
    return new OperationTool(this);
  }

  @Override
  public String toString() {
    return "ConnectorTool[" + name() + ", connection=" + operation.connectionName() + ", approval="
        + approvalRule().describe() + "]";
  }
}
