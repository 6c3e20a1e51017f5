package dev.ratchet.connectors.provider;

/**
 * Whether a provider is configured and reachable now.
 *
 * @param configured an API key is present
 * @param healthy the provider answered and accepted the key
 * @param message why not, when it is not healthy (never contains the key)
 */
public record ProviderHealth(boolean configured, boolean healthy, String message) {
}
