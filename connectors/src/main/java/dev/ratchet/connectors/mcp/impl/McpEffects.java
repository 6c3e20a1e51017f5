package dev.ratchet.connectors.mcp.impl;

import dev.ratchet.connectors.mcp.McpToolPin;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import io.modelcontextprotocol.spec.McpSchema;

/**
 * Effect class and approval of an MCP tool from its annotations, with the application's pin
 * taking precedence. Missing annotations are read the way the MCP specification defaults them:
 * not read-only, not idempotent, destructive.
 */
public final class McpEffects {

  private McpEffects() {
  }

  public static EffectClass effectClass(McpSchema.ToolAnnotations annotations, McpToolPin pin) {
    if (pin != null && pin.effectClass() != null) {
      return pin.effectClass();
    }
    if (annotations == null) {
      return EffectClass.NON_IDEMPOTENT_WRITE;
    }
    if (Boolean.TRUE.equals(annotations.readOnlyHint())) {
      return EffectClass.READ;
    }
    if (Boolean.TRUE.equals(annotations.idempotentHint())) {
      return EffectClass.IDEMPOTENT_WRITE;
    }
    return EffectClass.NON_IDEMPOTENT_WRITE;
  }

  public static ApprovalRule approval(McpSchema.ToolAnnotations annotations, McpToolPin pin, EffectClass effect) {
    if (pin != null && pin.approval() != null) {
      return pin.approval();
    }
    if (effect == EffectClass.READ) {
      return ApprovalRule.never();
    }
    if (annotations == null) {
      return ApprovalRule.always().withSource("no annotations: treated as a destructive write");
    }
    if (annotations.destructiveHint() == null) {
      return ApprovalRule.always().withSource("MCP annotations (no destructiveHint: treated as destructive)");
    }
    return annotations.destructiveHint() ? ApprovalRule.always().withSource("MCP annotations (destructive)")
        : ApprovalRule.never();
  }
}
