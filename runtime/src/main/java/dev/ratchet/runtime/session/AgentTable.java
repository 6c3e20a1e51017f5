package dev.ratchet.runtime.session;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.ToolCatalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The agents registered with one Ratchet, by name, each with its catalogue versions. */
public final class AgentTable {

  private final Map<String, AgentVersions> agents = new ConcurrentHashMap<>();

  /** Adds an agent with its resolved catalogue; fails with {@code DUPLICATE_AGENT} when the name is taken. */
  public AgentVersions add(AgentDefinition agent, ToolCatalog catalog) {
    AgentVersions versions = new AgentVersions(agent, catalog);
    if (agents.putIfAbsent(agent.name(), versions) != null) {
      throw new RatchetException(ErrorCode.DUPLICATE_AGENT, "agent '" + agent.name() + "' is already registered");
    }
    return versions;
  }

  /** Adds {@code versions} unless its name is taken; answers the agent already registered, else null. */
  public AgentVersions addIfAbsent(AgentVersions versions) {
    return agents.putIfAbsent(versions.agent(), versions);
  }

  /** The agent of that name; null when none is registered. */
  public AgentVersions get(String agent) {
    return agents.get(agent);
  }

  /** The current catalogue of the agent of that name; null when none is registered. */
  public ToolCatalog catalog(String agent) {
    AgentVersions versions = agents.get(agent);
    return versions == null ? null : versions.current();
  }

  public boolean contains(String agent) {
    return agents.containsKey(agent);
  }

  public List<String> names() {
    return new ArrayList<>(agents.keySet());
  }

  public List<AgentVersions> all() {
    return new ArrayList<>(agents.values());
  }

  /** The error for a request naming an agent that is not registered. */
  public RatchetException unknown(String agent) {
    return new RatchetException(ErrorCode.UNKNOWN_AGENT, "no agent named '" + agent + "'; registered agents: "
        + agents.keySet());
  }
}
