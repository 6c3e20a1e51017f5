package dev.ratchet.server.reload;

import dev.ratchet.runtime.AgentDefinition;
import io.vertx.core.Future;

import java.nio.file.Path;
import java.util.List;

/**
 * Loads every agent definition the server serves from its configuration: at start and at each
 * reload. A load that fails (a file that does not validate, a reference that does not resolve)
 * fails its future with a message naming what is wrong, and the reload changes nothing.
 */
@FunctionalInterface
public interface AgentLoader {

  /** All definitions, read afresh. */
  Future<List<AgentDefinition>> load();

  /**
   * Told whether the definitions of the last {@link #load()} were put in place ({@code true}) or
   * refused ({@code false}), so a loader can stop what the refused ones, or the replaced ones, started.
   */
  default void settled(boolean defined) {
  }

  /** Directories whose changes trigger a reload; none by default. */
  default List<Path> watched() {
    return List.of();
  }
}
