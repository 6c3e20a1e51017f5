package dev.ratchet.connectors.provider.impl;

import dev.ratchet.connectors.provider.ProviderToolConfig;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;

/**
 * A provider's behaviour hints for one tool (each may be unknown) and what they mean for the
 * runtime. Unknown means a write that is not safe to repeat and should be approved: the provider
 * did not promise otherwise.
 */
public record EffectHints(Boolean readOnly, Boolean idempotent, Boolean destructive) {

  public static final EffectHints NONE = new EffectHints(null, null, null);

  public EffectClass effectClass() {
    if (Boolean.TRUE.equals(readOnly)) {
      return EffectClass.READ;
    }
    if (Boolean.TRUE.equals(idempotent)) {
      return EffectClass.IDEMPOTENT_WRITE;
    }
    return EffectClass.NON_IDEMPOTENT_WRITE;
  }

  public boolean approvalRecommended() {
    return effectClass() != EffectClass.READ && !Boolean.FALSE.equals(destructive);
  }

  public EffectClass effectClass(ProviderToolConfig pin) {
    return pin != null && pin.effectClass() != null ? pin.effectClass() : effectClass();
  }

  public ApprovalRule approval(ProviderToolConfig pin) {
    if (pin != null && pin.requireApproval() != null) {
      return (pin.requireApproval() ? ApprovalRule.always() : ApprovalRule.never()).withSource("application config");
    }
    if (effectClass(pin) == EffectClass.READ) {
      return ApprovalRule.never();
    }
    return Boolean.FALSE.equals(destructive) ? ApprovalRule.never()
        : ApprovalRule.always().withSource("provider metadata");
  }
}
