package dev.ratchet.server.config;

import dev.ratchet.connectors.Connections;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.server.reload.AgentLoader;
import dev.ratchet.verticles.Ratchet;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Loads the agents of a directory of agent files ({@link AgentFiles}) at start and at each reload.
 * A load with a problem in any file, or an agent named like one registered from Java, fails naming
 * it, and nothing it started stays running. Once a load is defined, what the load it replaced had
 * started (MCP servers) is stopped.
 */
public final class AgentDirectoryLoader implements AgentLoader {

  private final Vertx vertx;
  private final Ratchet ratchet;
  private final Path dir;
  private final Callable<List<Path>> files;
  private final Connections connections;
  private final AgentModels models;
  private LoadedAgents current;
  private LoadedAgents pending;

  /** Loads the files {@code files} lists (read on a worker) of the directory {@code dir}. */
  public AgentDirectoryLoader(Vertx vertx, Ratchet ratchet, Path dir, Callable<List<Path>> files,
                              Connections connections, AgentModels models) {
    this.vertx = vertx;
    this.ratchet = ratchet;
    this.dir = dir;
    this.files = files;
    this.connections = connections;
    this.models = models;
  }

  /** Loads every agent file of {@code dir}. */
  public AgentDirectoryLoader(Vertx vertx, Ratchet ratchet, Path dir, Connections connections, AgentModels models) {
    this(vertx, ratchet, dir, () -> AgentFiles.files(dir), connections, models);
  }

  @Override
  public Future<List<AgentDefinition>> load() {
    return vertx.executeBlocking(files)
        .compose(list -> AgentFiles.load(vertx, list, connections, models))
        .compose(loaded -> loaded.checkedAgainst(ratchet)
            .recover(err -> loaded.close().transform(ar -> Future.failedFuture(err))))
        .map(loaded -> {
          LoadedAgents refused;
          synchronized (this) {
            refused = pending;
            pending = loaded;
          }
          if (refused != null) {
            refused.close();
          }
          return loaded.agents();
        });
  }

  @Override
  public void settled(boolean defined) {
    LoadedAgents stop;
    synchronized (this) {
      if (pending == null) {
        return;
      }
      if (defined) {
        stop = current;
        current = pending;
      } else {
        stop = pending;
      }
      pending = null;
    }
    if (stop != null) {
      stop.close();
    }
  }

  @Override
  public List<Path> watched() {
    return List.of(dir);
  }

  /** The agents of the load defined last; none before the first. */
  public synchronized List<AgentDefinition> agents() {
    return current == null ? List.of() : current.agents();
  }

  /** Stops what the agents defined last started. */
  public Future<Void> close() {
    LoadedAgents stop;
    synchronized (this) {
      stop = current;
      current = null;
    }
    return stop == null ? Future.succeededFuture() : stop.close();
  }
}
