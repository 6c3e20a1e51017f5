package dev.ratchet.connectors.provider;

/**
 * The identity tools are resolved for. Tools returned by
 * {@link ToolProvider#resolveTools} stay bound to it: a session resolves its own tools, passing the
 * agent's author and the resource id the session was created with (from the authenticated API only).
 *
 * @param authorId the agent author's identity, used by {@link ConnectionScope#PER_AUTHOR}
 * @param resourceId the session caller's resource id, used by {@link ConnectionScope#CALLER_SUPPLIED}
 * @param scope overrides the provider's default scope when not null
 */
public record ResolveOptions(String authorId, String resourceId, ConnectionScope scope) {

  public static ResolveOptions author(String authorId) {
    return new ResolveOptions(authorId, null, null);
  }

  public static ResolveOptions caller(String authorId, String resourceId) {
    return new ResolveOptions(authorId, resourceId, null);
  }

  public ResolveOptions withScope(ConnectionScope scope) {
    return new ResolveOptions(authorId, resourceId, scope);
  }
}
