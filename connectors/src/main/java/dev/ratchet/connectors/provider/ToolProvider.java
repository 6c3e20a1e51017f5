package dev.ratchet.connectors.provider;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.Tool;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;

/**
 * A catalogue of third-party tools with its own authentication (Composio, Arcade), discovered and
 * resolved at run time. Only what the provider's {@link AllowList} allows is listed or resolvable.
 * <p>
 * Identity: {@link #resolveTools} binds the returned tools to one identity, chosen by the scope
 * ({@link #defaultScope()} unless {@link ResolveOptions#scope()} overrides it). Tools resolved for
 * one caller never run with another caller's connection.
 * <p>
 * Required: {@link #info}, {@link #listTools} and {@link #resolveTools}. Everything else is
 * optional and has a default: no toolkits, no schema look-up, and the authorization and connection
 * methods fail with {@code UNSUPPORTED}. A provider that implements some of those says so in
 * {@link #capabilities()}, which callers read before offering them.
 */
public interface ToolProvider {

  ProviderInfo info();

  /** What this provider supports beyond listing and resolving tools; nothing by default. */
  default ProviderCapabilities capabilities() {
    return ProviderCapabilities.NONE;
  }

  /** Whose connections tools run with when {@link ResolveOptions#scope()} does not say; per-author by default. */
  default ConnectionScope defaultScope() {
    return ConnectionScope.PER_AUTHOR;
  }

  /** The provider's toolkits; a provider without toolkits answers one empty page. */
  default Future<ProviderPage<ProviderToolkit>> listToolkits() {
    return Future.succeededFuture(new ProviderPage<>(List.of(), null));
  }

  /**
   * The page of toolkits that {@code cursor} (a {@link ProviderPage#nextCursor()} of this method)
   * points at; null for the first. A provider without pages of toolkits refuses any cursor.
   */
  default Future<ProviderPage<ProviderToolkit>> listToolkits(String cursor) {
    return cursor == null ? listToolkits()
        : Future.failedFuture(new ProviderException(ErrorCode.INVALID_CURSOR, "tool provider '" + info().id()
            + "' has one page of toolkits; not a cursor of it: " + cursor));
  }

  Future<ProviderPage<ProviderToolInfo>> listTools(ListToolsOptions options);

  /**
   * The input JSON Schema of a tool, or null when the tool is unknown or not allowed. Fails with
   * {@code UNSUPPORTED} by default; {@link #resolveTools} still gives each tool's schema.
   */
  default Future<JsonObject> getToolSchema(String slug) {
    return unsupported("looking up a tool's schema");
  }

  /**
   * Runnable tools for the given slugs, keyed by slug, bound to the identity in {@code options}.
   * Fails with {@link ProviderException} when a slug is unknown or not allowed, when the scope needs
   * an identity that {@code options} does not carry, or when a configured connection belongs to
   * someone else.
   *
   * @param configs per-slug settings (connection, pinned effect class or approval); may be empty
   */
  Future<Map<String, Tool>> resolveTools(List<String> slugs, Map<String, ProviderToolConfig> configs,
                                         ResolveOptions options);

  /** Starts an authorization flow; see {@link ProviderCapabilities#authorize()}. */
  default Future<Authorization> authorize(AuthorizeOptions options) {
    return unsupported("authorization");
  }

  /** The values a toolkit asks for before it can be authorized; see {@link ProviderCapabilities#connectionFields()}. */
  default Future<List<ConnectionField>> listConnectionFields(String toolkit) {
    return unsupported("connection fields");
  }

  /** The state of a flow that {@link #authorize} started; supported with it. */
  default Future<AuthStatus> getAuthStatus(String authId) {
    return unsupported("authorization status");
  }

  /**
   * Whether each connection is still active for {@code identity} (resolved as in
   * {@link #resolveTools}), keyed by connection id. A connection of another identity reads
   * {@code false}, exactly like a missing one: its state is never revealed. Fails with
   * {@code NO_IDENTITY} when {@code identity} names nobody.
   */
  default Future<Map<String, Boolean>> getConnectionStatus(List<ConnectionRef> items, ResolveOptions identity) {
    return unsupported("connection status");
  }

  /** One page of {@code identity}'s connections; see {@link ProviderCapabilities#listConnections()}. */
  default Future<ProviderPage<ProviderConnection>> listConnections(ListConnectionsOptions options) {
    return unsupported("listing connections");
  }

  /** Whether the provider is configured and answers; a provider that cannot tell reports healthy. */
  default Future<ProviderHealth> getHealth() {
    return Future.succeededFuture(new ProviderHealth(true, true, null));
  }

  /**
   * Revokes one of {@code identity}'s connections. Fails with {@code CONNECTION_NOT_OWNED} when the
   * connection is not one of its own (another identity's, or none: the answer is the same), and
   * with {@code NO_IDENTITY} when {@code identity} names nobody; nothing is revoked then.
   */
  default Future<Void> revokeConnection(String connectionId, ResolveOptions identity) {
    return unsupported("revoking connections");
  }

  private <T> Future<T> unsupported(String what) {
    return Future.failedFuture(new ProviderException(ErrorCode.UNSUPPORTED, "tool provider '" + info().id()
        + "' does not support " + what));
  }
}
