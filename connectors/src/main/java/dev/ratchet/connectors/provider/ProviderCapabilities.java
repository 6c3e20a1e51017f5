package dev.ratchet.connectors.provider;

/** What a provider supports besides listing and resolving tools; static for a provider type. */
public record ProviderCapabilities(boolean authorize, boolean connectionFields, boolean connectionStatus,
                                   boolean listConnections, boolean revokeConnection) {
}
