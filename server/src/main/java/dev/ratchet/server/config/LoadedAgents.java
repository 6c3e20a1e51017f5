package dev.ratchet.server.config;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.verticles.RatchetNode;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** The agents of a directory of agent files, validated and resolved, with what they started (MCP servers). */
public final class LoadedAgents {

  private final List<AgentDefinition> agents;
  private final Supplier<Future<Void>> closer;
  private final List<AgentFileError> warnings;

  LoadedAgents(List<AgentDefinition> agents, Supplier<Future<Void>> closer, List<AgentFileError> warnings) {
    this.agents = List.copyOf(agents);
    this.closer = closer;
    this.warnings = List.copyOf(warnings);
  }

  public List<AgentDefinition> agents() {
    return agents;
  }

  /** What is worth knowing about files that load: operations left out, catalogues larger than models take. */
  public List<AgentFileError> warnings() {
    return warnings;
  }

  /**
   * Registers every agent with the runtime. Fails, registering none, when one has the name of an
   * agent already registered (from Java): the error names both origins.
   */
  public Future<Void> registerWith(RatchetNode ratchet) {
    List<AgentFileError> clashes = new ArrayList<>();
    for (AgentDefinition agent : agents) {
      if (ratchet.queries().agents().contains(agent.name())) {
        var catalog = ratchet.queries().catalog(agent.name());
        String other = catalog == null ? "java" : catalog.origin();
        clashes.add(error(agent.origin(), "agent '" + agent.name() + "' is also registered from "
            + ("java".equals(other) ? "Java (Ratchet.register)" : other)));
      }
    }
    if (!clashes.isEmpty()) {
      return Future.failedFuture(new AgentFilesException(clashes));
    }
    Future<Void> chain = Future.succeededFuture();
    for (AgentDefinition agent : agents) {
      chain = chain.compose(v -> ratchet.register(agent).mapEmpty());
    }
    return chain;
  }

  /**
   * Defines every agent with the runtime ({@link RatchetNode#define}): an agent of an earlier load is
   * replaced for new turns, a new one is registered, agents registered from Java stay. Fails,
   * changing nothing, when one has the name of an agent registered from Java: the error names both origins.
   */
  public Future<Void> defineWith(RatchetNode ratchet) {
    return checkedAgainst(ratchet).compose(v -> ratchet.define(agents)).mapEmpty();
  }

  /** Fails with an {@link AgentFilesException} when an agent has the name of one registered from Java. */
  public Future<LoadedAgents> checkedAgainst(RatchetNode ratchet) {
    List<AgentFileError> clashes = new ArrayList<>();
    for (AgentDefinition agent : agents) {
      var catalog = ratchet.queries().catalog(agent.name());
      if (catalog != null && "java".equals(catalog.origin())) {
        clashes.add(error(agent.origin(), "agent '" + agent.name() + "' is also registered from Java (Ratchet.register)"));
      }
    }
    return clashes.isEmpty() ? Future.succeededFuture(this) : Future.failedFuture(new AgentFilesException(clashes));
  }

  /** Stops what the agents' tool sources started. */
  public Future<Void> close() {
    return closer.get();
  }

  private static AgentFileError error(String origin, String message) {
    int colon = origin.lastIndexOf(':');
    return new AgentFileError(origin.substring(0, colon), Integer.parseInt(origin.substring(colon + 1)), "agent",
        message);
  }
}
