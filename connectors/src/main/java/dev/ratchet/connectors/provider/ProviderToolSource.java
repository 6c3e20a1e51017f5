package dev.ratchet.connectors.provider;

import dev.ratchet.runtime.SourceHealth;

import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolSource;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A saved selection of a provider's tools as a {@link ToolSource}, resolved for one identity. A
 * session whose tools depend on its caller builds one of these with the caller's resource id.
 */
public final class ProviderToolSource implements ToolSource {

  private final ToolProvider provider;
  private final List<String> slugs;
  private final Map<String, ProviderToolConfig> configs;
  private final ResolveOptions identity;

  private ProviderToolSource(ToolProvider provider, List<String> slugs, Map<String, ProviderToolConfig> configs,
                             ResolveOptions identity) {
    this.provider = provider;
    this.slugs = List.copyOf(slugs);
    this.configs = Map.copyOf(configs);
    this.identity = identity;
  }

  public static ProviderToolSource create(ToolProvider provider, List<String> slugs,
                                          Map<String, ProviderToolConfig> configs, ResolveOptions identity) {
    return new ProviderToolSource(provider, slugs, configs, identity);
  }

  @Override
  public String name() {
    return "provider:" + provider.info().id();
  }

  @Override
  public Future<SourceHealth> sourceHealth() {
    return provider.getHealth().map(h -> h.healthy() ? SourceHealth.healthy(name())
        : SourceHealth.unhealthy(name(), h.message()));
  }

  @Override
  public Future<List<Tool>> tools(Vertx vertx) {
    return provider.resolveTools(slugs, configs, identity).map(tools -> new ArrayList<>(tools.values()));
  }
}
