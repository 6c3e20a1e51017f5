package dev.ratchet.connectors.mcp;

import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;

import java.util.Objects;

/**
 * An application's fixed decision about one tool of an MCP server. Annotations come from a server
 * that may not be trusted, so a pin always wins over them, however the server's annotations change
 * later. Either part may be null to keep what the annotations say.
 *
 * @param effectClass the effect class to use, or null to derive it from the annotations
 * @param approval the approval rule to use, or null to derive it from the annotations
 */
public record McpToolPin(EffectClass effectClass, ApprovalRule approval) {

  public static McpToolPin effect(EffectClass effectClass) {
    return new McpToolPin(Objects.requireNonNull(effectClass), null);
  }

  public static McpToolPin of(EffectClass effectClass, boolean requireApproval) {
    return new McpToolPin(Objects.requireNonNull(effectClass), approvalOf(requireApproval));
  }

  public McpToolPin withApproval(boolean required) {
    return new McpToolPin(effectClass, approvalOf(required));
  }

  public McpToolPin withApproval(ApprovalRule rule) {
    return new McpToolPin(effectClass, rule.withSource("application pin"));
  }

  private static ApprovalRule approvalOf(boolean required) {
    return (required ? ApprovalRule.always() : ApprovalRule.never()).withSource("application pin");
  }
}
