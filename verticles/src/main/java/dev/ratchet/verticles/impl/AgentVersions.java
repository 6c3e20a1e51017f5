package dev.ratchet.verticles.impl;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.CatalogVersions;
import dev.ratchet.runtime.ToolCatalog;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A registered agent: its current definition and catalogue, and the catalogues it had before,
 * which turns validated against them still resume with. Only the latest {@link #KEPT_VERSIONS}
 * are kept: a turn older than that resumes with the current catalogue, as after a restart.
 */
final class AgentVersions implements CatalogVersions {

  static final int KEPT_VERSIONS = 32;

  private final String agent;
  private volatile AgentDefinition definition;
  private volatile ToolCatalog current;
  private final Map<String, ToolCatalog> known = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, ToolCatalog> eldest) {
      return size() > KEPT_VERSIONS;
    }
  };

  AgentVersions(AgentDefinition definition, ToolCatalog catalog) {
    this.agent = definition.name();
    install(definition, catalog);
  }

  @Override
  public String agent() {
    return agent;
  }

  @Override
  public ToolCatalog current() {
    return current;
  }

  @Override
  public synchronized ToolCatalog version(String version) {
    return known.get(version);
  }

  /** The definition sessions started from now on use (model, loop settings, tool sources). */
  AgentDefinition definition() {
    return definition;
  }

  /** Makes this definition and catalogue the current ones; answers whether the catalogue's version changed. */
  synchronized boolean install(AgentDefinition definition, ToolCatalog catalog) {
    boolean changed = current == null || !current.version().equals(catalog.version());
    this.definition = definition;
    this.current = catalog;
    known.put(catalog.version(), catalog);
    return changed;
  }

  /** As {@link #install}, only while {@code definition} is still the current one: a replaced definition's refresh is dropped. */
  synchronized boolean refresh(AgentDefinition definition, ToolCatalog catalog) {
    return this.definition == definition && install(definition, catalog);
  }
}
