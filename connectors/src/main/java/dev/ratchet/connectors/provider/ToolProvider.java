package dev.ratchet.connectors.provider;

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
 */
public interface ToolProvider {

  ProviderInfo info();

  ProviderCapabilities capabilities();

  ConnectionScope defaultScope();

  Future<ProviderPage<ProviderToolkit>> listToolkits();

  /**
   * The page of toolkits that {@code cursor} (a {@link ProviderPage#nextCursor()} of this method)
   * points at; null for the first. A provider without pages of toolkits refuses any cursor.
   */
  default Future<ProviderPage<ProviderToolkit>> listToolkits(String cursor) {
    return cursor == null ? listToolkits()
        : Future.failedFuture(new ProviderException("INVALID_CURSOR", "not a toolkit cursor of this provider: " + cursor));
  }

  Future<ProviderPage<ProviderToolInfo>> listTools(ListToolsOptions options);

  /** The input JSON Schema of a tool, or null when the tool is unknown or not allowed. */
  Future<JsonObject> getToolSchema(String slug);

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

  Future<Authorization> authorize(AuthorizeOptions options);

  Future<List<ConnectionField>> listConnectionFields(String toolkit);

  Future<AuthStatus> getAuthStatus(String authId);

  /**
   * Whether each connection is still active for {@code identity} (resolved as in
   * {@link #resolveTools}), keyed by connection id. A connection of another identity reads
   * {@code false}, exactly like a missing one: its state is never revealed. Fails with
   * {@code NO_IDENTITY} when {@code identity} names nobody.
   */
  Future<Map<String, Boolean>> getConnectionStatus(List<ConnectionRef> items, ResolveOptions identity);

  Future<ProviderPage<ProviderConnection>> listConnections(ListConnectionsOptions options);

  Future<ProviderHealth> getHealth();

  /**
   * Revokes one of {@code identity}'s connections. Fails with {@code CONNECTION_NOT_OWNED} when the
   * connection is not one of its own (another identity's, or none: the answer is the same), and
   * with {@code NO_IDENTITY} when {@code identity} names nobody; nothing is revoked then.
   */
  Future<Void> revokeConnection(String connectionId, ResolveOptions identity);
}
