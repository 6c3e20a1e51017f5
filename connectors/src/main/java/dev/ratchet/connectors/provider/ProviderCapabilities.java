package dev.ratchet.connectors.provider;

/**
 * What a provider supports besides listing and resolving tools; static for a provider type. Each
 * flag names optional {@link ToolProvider} methods that the provider implements ({@code authorize}
 * covers {@link ToolProvider#getAuthStatus} too); the others fail with {@code UNSUPPORTED}.
 */
public record ProviderCapabilities(boolean authorize, boolean connectionFields, boolean connectionStatus,
                                   boolean listConnections, boolean revokeConnection) {

  /** Only listing and resolving tools. */
  public static final ProviderCapabilities NONE = new ProviderCapabilities(false, false, false, false, false);
}
