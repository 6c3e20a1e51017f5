package dev.ratchet.connectors.provider.arcade;

import dev.ratchet.connectors.provider.ToolProvider;
import dev.ratchet.connectors.provider.ToolProviderOptions;
import dev.ratchet.connectors.provider.arcade.impl.ArcadeToolProviderImpl;
import io.vertx.core.Vertx;

/**
 * Arcade's tool catalogue (names like {@code Github.GetRepository}) over its REST API at a
 * configurable base URL, with the API key sent as a bearer token. Resolved tools are named with
 * {@code _} in place of {@code .} ({@code Github_GetRepository}) so that model APIs accept them.
 * <pre>{@code
 * ToolProvider arcade = ArcadeToolProvider.create(vertx,
 *     ToolProviderOptions.apiKey(Secret.from(() -> System.getenv("ARCADE_API_KEY")))
 *         .baseUrl("https://arcade.internal.example"));
 * }</pre>
 */
public interface ArcadeToolProvider extends ToolProvider {

  String DEFAULT_BASE_URL = "https://api.arcade.dev";

  static ArcadeToolProvider create(Vertx vertx, ToolProviderOptions options) {
    return new ArcadeToolProviderImpl(vertx, options);
  }
}
