package dev.ratchet.server.config;

import dev.ratchet.connectors.Connections;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.server.reload.AgentLoader;
import dev.ratchet.verticles.Ratchet;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Loads the agents of a directory of agent files ({@link AgentFiles}) at start and at each reload.
 * A load with a problem in any file, or an agent named like one registered from Java, fails naming
 * it, and nothing it started stays running. A load that a newer one replaced stays open, so that a
 * turn validated against its definitions (a write waiting for approval) still runs with its tools;
 * only the {@link #RETIRED_LOADS} most recent replaced loads are kept, and what an older one had
 * started (MCP servers, HTTP clients) is stopped.
 */
public final class AgentDirectoryLoader implements AgentLoader {

  private final Vertx vertx;
  private final Ratchet ratchet;
  private final Path dir;
  private final Callable<List<Path>> files;
  private final Connections connections;
  private final AgentModels models;
  /** Replaced loads kept open for the turns validated against them. */
  public static final int RETIRED_LOADS = 8;

  private LoadedAgents current;
  private LoadedAgents pending;
  private final Deque<LoadedAgents> retired = new ArrayDeque<>();

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
        if (current != null) {
          retired.addLast(current);
        }
        stop = retired.size() > RETIRED_LOADS ? retired.removeFirst() : null;
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

  /** Stops what the agents defined last, and the replaced loads still kept, started. */
  public Future<Void> close() {
    List<LoadedAgents> stop = new ArrayList<>();
    synchronized (this) {
      if (current != null) {
        stop.add(current);
      }
      stop.addAll(retired);
      retired.clear();
      current = null;
    }
    return Future.join(stop.stream().map(LoadedAgents::close).toList()).mapEmpty();
  }
}
