package dev.ratchet.verticles.impl;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.ToolSource;
import dev.ratchet.runtime.session.AgentTable;
import dev.ratchet.runtime.session.AgentVersions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Follows the tool sources of registered agents: when a source says its tools changed, the agent's
 * catalogue is resolved again from its current definition and becomes the catalogue of new turns.
 * Refreshes of one agent run one after another, so the last notification always wins.
 */
final class ToolsChanged {

  private static final Logger LOG = LoggerFactory.getLogger(ToolsChanged.class);

  private final Vertx vertx;
  private final AgentTable agents;
  private final Map<String, Set<ToolSource>> followed = new ConcurrentHashMap<>();
  private final Map<String, Future<Void>> refreshing = new ConcurrentHashMap<>();

  ToolsChanged(Vertx vertx, AgentTable agents) {
    this.vertx = vertx;
    this.agents = agents;
  }

  /** Listens to each source of the definition not listened to yet for this agent. */
  void follow(AgentDefinition definition) {
    Set<ToolSource> sources = followed.computeIfAbsent(definition.name(),
        n -> Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>())));
    for (ToolSource source : definition.toolSources()) {
      if (sources.add(source)) {
        source.toolsChangedHandler(() -> changed(definition.name(), source));
      }
    }
  }

  private void changed(String agent, ToolSource source) {
    refreshing.compute(agent, (name, before) ->
        (before == null ? Future.<Void>succeededFuture() : before).eventually(() -> refresh(name, source)));
  }

  private Future<Void> refresh(String agent, ToolSource source) {
    AgentVersions versions = agents.get(agent);
    if (versions == null || versions.definition().toolSources().stream().noneMatch(s -> s == source)) {
      return Future.succeededFuture();
    }
    AgentDefinition definition = versions.definition();
    return ToolCatalog.resolve(vertx, definition).map(catalog -> {
      String before = versions.current().version();
      // a definition replaced meanwhile wins over a refresh of the one it replaced
      if (versions.refresh(definition, catalog)) {
        LOG.info("agent {}: tool source '{}' changed its tools; catalogue {} replaces {} for new turns", agent,
            source.name(), catalog.version(), before);
      }
      return (Void) null;
    }).onFailure(err -> LOG.warn("agent {}: tool source '{}' changed its tools, but the catalogue could not be"
        + " resolved again, so new turns keep catalogue {}: {}", agent, source.name(),
        versions.current().version(), err.getMessage())).otherwiseEmpty();
  }
}
