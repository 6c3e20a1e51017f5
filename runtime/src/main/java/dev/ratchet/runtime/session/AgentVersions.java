package dev.ratchet.runtime.session;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.CatalogVersions;
import dev.ratchet.runtime.ToolCatalog;

import java.lang.ref.WeakReference;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A registered agent: its current definition and catalogue, and the catalogues it had before,
 * which turns validated against them still resume with. A replaced catalogue is held weakly: a
 * turn in flight holds it (each of its calls does), and once none does it can be collected, so
 * that reloads do not accumulate catalogues. At most the latest {@link #KEPT_VERSIONS} are looked
 * up: a turn whose catalogue is gone resumes with the current one, as after a restart.
 */
public final class AgentVersions implements CatalogVersions {

  static final int KEPT_VERSIONS = 32;

  private final String agent;
  private volatile AgentDefinition definition;
  private volatile ToolCatalog current;
  private final Map<String, WeakReference<ToolCatalog>> known = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, WeakReference<ToolCatalog>> eldest) {
      return size() > KEPT_VERSIONS;
    }
  };

  public AgentVersions(AgentDefinition definition, ToolCatalog catalog) {
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
    if (current != null && current.version().equals(version)) {
      return current;
    }
    WeakReference<ToolCatalog> ref = known.get(version);
    return ref == null ? null : ref.get();
  }

  /** The definition sessions started from now on use (model, loop settings, tool sources). */
  public AgentDefinition definition() {
    return definition;
  }

  /** Makes this definition and catalogue the current ones; answers whether the catalogue's version changed. */
  public synchronized boolean install(AgentDefinition definition, ToolCatalog catalog) {
    boolean changed = current == null || !current.version().equals(catalog.version());
    this.definition = definition;
    this.current = catalog;
    known.put(catalog.version(), new WeakReference<>(catalog));
    return changed;
  }

  /**
   * As {@link #install}, only while {@code definition} is still the current one: a replaced
   * definition's refresh is dropped.
   */
  public synchronized boolean refresh(AgentDefinition definition, ToolCatalog catalog) {
    return this.definition == definition && install(definition, catalog);
  }
}
