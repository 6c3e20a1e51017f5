package dev.ratchet.connectors.provider.impl;

import dev.ratchet.connectors.provider.ConnectionScope;
import dev.ratchet.connectors.provider.ProviderException;
import dev.ratchet.connectors.provider.ResolveOptions;
import dev.ratchet.runtime.ErrorCode;

/**
 * Chooses the provider-side user id that tools run as, in the order {@link ResolveOptions} gives.
 * It never falls back to a shared identity unless the application named one: a missing caller must
 * fail loudly, not quietly share somebody's connections.
 */
public record IdentityResolver(String provider, ConnectionScope defaultScope, String sharedIdentity) {

  /** A blank shared identity is none. */
  public IdentityResolver {
    sharedIdentity = sharedIdentity == null || sharedIdentity.isBlank() ? null : sharedIdentity;
  }

  public String userId(ResolveOptions options) {
    ConnectionScope scope = options == null || options.scope() == null ? defaultScope : options.scope();
    if (scope == ConnectionScope.PER_AUTHOR) {
      String author = options == null ? null : options.authorId();
      if (author == null || author.isBlank()) {
        throw new ProviderException(ErrorCode.NO_IDENTITY, "tool provider '" + provider
            + "' runs tools as the agent's author (per-author scope), but no author id was given");
      }
      return author;
    }
    String resource = options == null ? null : options.resourceId();
    if (resource != null && !resource.isBlank()) {
      return resource;
    }
    String user = options == null ? null : options.userId();
    if (user != null && !user.isBlank()) {
      return user;
    }
    if (sharedIdentity != null) {
      return sharedIdentity;
    }
    throw new ProviderException(ErrorCode.NO_IDENTITY, "tool provider '" + provider
        + "' runs tools as the session's caller (caller-supplied scope), but this session has no resource id"
        + " and no user id was named: create the session with a resource id through the authenticated API");
  }
}
