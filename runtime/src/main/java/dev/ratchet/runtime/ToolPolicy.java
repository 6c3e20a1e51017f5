package dev.ratchet.runtime;

import io.vertx.core.json.JsonObject;

import java.util.function.Predicate;

/**
 * An application's per-tool override. It may change only how a call is approved, never its effect class.
 */
public record ToolPolicy(String toolName, ApprovalRule approval) {

  public static ToolPolicy requireApproval(String toolName, boolean required) {
    return new ToolPolicy(toolName, (required ? ApprovalRule.always() : ApprovalRule.never()).withSource("policy"));
  }

  /**
   * This policy, letting an approver edit the arguments before approving ({@code approval.allowEdit});
   * the edited arguments are validated against the tool's input schema and the call runs with them.
   */
  public ToolPolicy allowingEdits() {
    return new ToolPolicy(toolName, approval.withEdit(true));
  }

  public static ToolPolicy requireApprovalWhen(String toolName, Predicate<JsonObject> predicate) {
    return new ToolPolicy(toolName, ApprovalRule.when(predicate).withSource("policy predicate"));
  }
}
