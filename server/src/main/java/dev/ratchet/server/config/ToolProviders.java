package dev.ratchet.server.config;

import dev.ratchet.connectors.Connection;
import dev.ratchet.connectors.Connections;
import dev.ratchet.connectors.provider.ToolProvider;
import dev.ratchet.connectors.provider.ToolProviderOptions;
import dev.ratchet.connectors.provider.arcade.ArcadeToolProvider;
import dev.ratchet.connectors.provider.composio.ComposioToolProvider;
import io.vertx.core.Vertx;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Tool providers (Composio, Arcade) built from connections: a connection whose connector is
 * {@code composio} or {@code arcade} holds the API key as the credential {@code apiKey}, and may set
 * {@code config.baseUrl} and {@code config.sharedIdentity}. {@code run} serves one unrestricted
 * provider per such connection on the Connections page and API; each agent-file entry builds its own,
 * restricted to the entry's toolkits and tools.
 */
public final class ToolProviders {

  public static final String COMPOSIO = "composio";
  public static final String ARCADE = "arcade";

  private ToolProviders() {
  }

  /** Whether the connection is for a tool provider. */
  public static boolean isProvider(Connection connection) {
    return COMPOSIO.equals(connection.connectorId()) || ARCADE.equals(connection.connectorId());
  }

  /**
   * The provider of {@code connection}, allowing only {@code toolkits} (every toolkit when empty)
   * and, among their tools, those matching {@code tools} (every tool when empty).
   *
   * @throws IllegalArgumentException when the connection is not a provider's or has no API key
   */
  public static ToolProvider create(Vertx vertx, Connection connection, List<String> toolkits, List<String> tools) {
    if (!isProvider(connection)) {
      throw new IllegalArgumentException("connection '" + connection.name() + "' is for the connector '"
          + connection.connectorId() + "', not for a tool provider (composio or arcade)");
    }
    if (!connection.hasCredential("apiKey")) {
      throw new IllegalArgumentException("connection '" + connection.name() + "' has no credential 'apiKey' (the "
          + connection.connectorId() + " API key)");
    }
    ToolProviderOptions options = ToolProviderOptions.apiKey(connection.credential("apiKey"))
        .displayName(connection.name());
    String baseUrl = connection.configString("baseUrl", null);
    if (baseUrl != null) {
      options.baseUrl(baseUrl);
    }
    String shared = connection.configString("sharedIdentity", null);
    if (shared != null) {
      options.sharedIdentity(shared);
    }
    if (!toolkits.isEmpty()) {
      options.allowedToolkits(toolkits.toArray(String[]::new));
    }
    if (!tools.isEmpty()) {
      options.allowedTools(Map.of("*", tools));
    }
    return COMPOSIO.equals(connection.connectorId()) ? ComposioToolProvider.create(vertx, options)
        : ArcadeToolProvider.create(vertx, options);
  }

  /** One unrestricted provider per provider connection, by connection name; connections without an API key are left out. */
  public static Map<String, ToolProvider> of(Vertx vertx, Connections connections) {
    Map<String, ToolProvider> providers = new TreeMap<>();
    for (Connection c : connections.all()) {
      if (isProvider(c) && c.hasCredential("apiKey")) {
        providers.put(c.name(), create(vertx, c, List.of(), List.of()));
      }
    }
    return providers;
  }
}
