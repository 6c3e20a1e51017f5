package dev.ratchet.connectors.provider;

import dev.ratchet.runtime.EffectClass;

/**
 * One tool in a provider's catalogue, before it is resolved into a runnable tool.
 *
 * @param effectClass what the provider's metadata says, or {@code non_idempotent_write} when it says nothing
 * @param approvalRecommended whether a person should approve calls unless the application decides otherwise
 */
public record ProviderToolInfo(String slug, String name, String description, String toolkit,
                               EffectClass effectClass, boolean approvalRecommended) {
}
