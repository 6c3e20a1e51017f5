package dev.ratchet.connectors.provider;

/** An existing connection at a provider; {@code active} when tools can run with it. */
public record ProviderConnection(String id, String toolkit, String userId, String status, boolean active) {
}
