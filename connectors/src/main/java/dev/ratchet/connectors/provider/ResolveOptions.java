package dev.ratchet.connectors.provider;

/**
 * The identity tools are resolved for. Tools returned by
 * {@link ToolProvider#resolveTools} stay bound to it: a session resolves its own tools, passing the
 * agent's author and the resource id the session was created with (from the authenticated API only).
 * <p>
 * With {@link ConnectionScope#CALLER_SUPPLIED} the provider-side user is, in this order: the
 * caller's {@code resourceId}; else {@code userId}, an identity the application names explicitly;
 * else the provider's shared identity, when the application configured one
 * ({@link ToolProviderOptions#sharedIdentity}); else resolving fails with {@code NO_IDENTITY}. With
 * {@link ConnectionScope#PER_AUTHOR} it is {@code authorId}, and nothing else.
 *
 * @param authorId the agent author's identity, used by {@link ConnectionScope#PER_AUTHOR}
 * @param resourceId the session caller's resource id, used by {@link ConnectionScope#CALLER_SUPPLIED}
 * @param scope overrides the provider's default scope when not null
 * @param userId a provider-side user the application names for a caller without a resource id
 */
public record ResolveOptions(String authorId, String resourceId, ConnectionScope scope, String userId) {

  public ResolveOptions(String authorId, String resourceId, ConnectionScope scope) {
    this(authorId, resourceId, scope, null);
  }

  public static ResolveOptions author(String authorId) {
    return new ResolveOptions(authorId, null, null);
  }

  public static ResolveOptions caller(String authorId, String resourceId) {
    return new ResolveOptions(authorId, resourceId, null);
  }

  public ResolveOptions withScope(ConnectionScope scope) {
    return new ResolveOptions(authorId, resourceId, scope, userId);
  }

  /** The same, with {@code userId} as the fallback for a caller without a resource id. */
  public ResolveOptions withUserId(String userId) {
    return new ResolveOptions(authorId, resourceId, scope, userId);
  }
}
