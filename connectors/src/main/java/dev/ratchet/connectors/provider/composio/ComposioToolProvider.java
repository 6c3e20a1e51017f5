package dev.ratchet.connectors.provider.composio;

import dev.ratchet.connectors.provider.ToolProvider;
import dev.ratchet.connectors.provider.ToolProviderOptions;
import dev.ratchet.connectors.provider.composio.impl.ComposioToolProviderImpl;
import io.vertx.core.Vertx;

/**
 * Composio's tool catalogue (slugs like {@code GITHUB_CREATE_ISSUE}) over its v3 REST API, with the
 * API key sent as {@code x-api-key}. When the {@code composio} toolkit is allowed it also offers
 * {@link #MANAGE_CONNECTIONS} (creates an authorization link for the caller) and
 * {@link #WAIT_FOR_CONNECTIONS} (waits until the caller has connected).
 * <pre>{@code
 * ToolProvider composio = ComposioToolProvider.create(vertx,
 *     ToolProviderOptions.apiKey(Secret.from(() -> System.getenv("COMPOSIO_API_KEY")))
 *         .allowedToolkits("composio", "gmail", "github")
 *         .defaultScope(ConnectionScope.CALLER_SUPPLIED));
 * }</pre>
 */
public interface ComposioToolProvider extends ToolProvider {

  String DEFAULT_BASE_URL = "https://backend.composio.dev";
  String MANAGE_CONNECTIONS = "COMPOSIO_MANAGE_CONNECTIONS";
  String WAIT_FOR_CONNECTIONS = "COMPOSIO_WAIT_FOR_CONNECTIONS";
  /** The toolkit the connection-management tools belong to, for allow-lists. */
  String META_TOOLKIT = "composio";

  static ComposioToolProvider create(Vertx vertx, ToolProviderOptions options) {
    return new ComposioToolProviderImpl(vertx, options);
  }
}
