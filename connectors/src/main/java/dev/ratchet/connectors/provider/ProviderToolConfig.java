package dev.ratchet.connectors.provider;

import dev.ratchet.runtime.EffectClass;

/**
 * The application's saved settings for one selected tool. Every field may be null.
 *
 * @param connectionId run with this connection (it must belong to the resolved identity)
 * @param effectClass pins the effect class, whatever the provider's metadata says
 * @param requireApproval pins whether calls need a person's approval
 */
public record ProviderToolConfig(String connectionId, EffectClass effectClass, Boolean requireApproval) {

  public static ProviderToolConfig connection(String connectionId) {
    return new ProviderToolConfig(connectionId, null, null);
  }

  public static ProviderToolConfig pin(EffectClass effectClass, boolean requireApproval) {
    return new ProviderToolConfig(null, effectClass, requireApproval);
  }
}
