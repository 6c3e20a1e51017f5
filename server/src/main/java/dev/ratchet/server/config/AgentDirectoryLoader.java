package dev.ratchet.server.config;

import dev.ratchet.connectors.Connections;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.server.reload.AgentLoader;
import dev.ratchet.verticles.RatchetNode;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.ref.WeakReference;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Loads the agents of a directory of agent files ({@link AgentFiles}) at start and at each reload.
 * A load with a problem in any file, or an agent named like one registered from Java, fails naming
 * it, and nothing it started stays running. A load that a newer one replaced stays open while a
 * catalogue defined from it is still in use, so that a turn validated against its definitions (a
 * write waiting for approval) still runs with its tools; once none is (the runtime holds replaced
 * catalogues weakly, a turn in flight strongly), what it started (MCP servers, HTTP clients) is
 * stopped and it is let go, at the next reload. At most {@link #RETIRED_LOADS} replaced loads are
 * kept; an older one is stopped all the same.
 */
public final class AgentDirectoryLoader implements AgentLoader {

  private static final Logger LOG = LoggerFactory.getLogger(AgentDirectoryLoader.class);

  private final Vertx vertx;
  private final RatchetNode ratchet;
  private final Path dir;
  private final Callable<List<Path>> files;
  private final Connections connections;
  private final AgentModels models;
  /** Replaced loads kept open for the turns validated against them. */
  public static final int RETIRED_LOADS = 8;

  private Load current;
  private LoadedAgents pending;
  private final Deque<Load> retired = new ArrayDeque<>();

  /** A load that was put in place, and the catalogues the runtime defined from it, held weakly. */
  private record Load(LoadedAgents agents, List<WeakReference<ToolCatalog>> catalogs) {

    boolean inUse() {
      return catalogs.stream().anyMatch(c -> c.get() != null);
    }
  }

  /** Loads the files {@code files} lists (read on a worker) of the directory {@code dir}. */
  public AgentDirectoryLoader(Vertx vertx, RatchetNode ratchet, Path dir, Callable<List<Path>> files,
                              Connections connections, AgentModels models) {
    this.vertx = vertx;
    this.ratchet = ratchet;
    this.dir = dir;
    this.files = files;
    this.connections = connections;
    this.models = models;
  }

  /** Loads every agent file of {@code dir}. */
  public AgentDirectoryLoader(Vertx vertx, RatchetNode ratchet, Path dir, Connections connections, AgentModels models) {
    this(vertx, ratchet, dir, () -> AgentFiles.files(dir), connections, models);
  }

  @Override
  public Future<List<AgentDefinition>> load() {
    return vertx.executeBlocking(files)
        .compose(list -> AgentFiles.load(vertx, list, connections, models))
        .compose(loaded -> loaded.checkedAgainst(ratchet)
            .recover(err -> loaded.close().transform(ar -> Future.failedFuture(err))))
        .map(loaded -> {
          loaded.warnings().forEach(w -> LOG.warn("agent files: {}", w));
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
    List<LoadedAgents> stop = new ArrayList<>();
    synchronized (this) {
      if (pending == null) {
        return;
      }
      if (defined) {
        if (current != null) {
          retired.addLast(current);
        }
        List<WeakReference<ToolCatalog>> catalogs = new ArrayList<>();
        for (AgentDefinition agent : pending.agents()) {
          ToolCatalog catalog = ratchet.queries().catalog(agent.name());
          if (catalog != null) {
            catalogs.add(new WeakReference<>(catalog));
          }
        }
        current = new Load(pending, catalogs);
        retired.removeIf(load -> {
          boolean done = !load.inUse();
          if (done) {
            stop.add(load.agents());
          }
          return done;
        });
        while (retired.size() > RETIRED_LOADS) {
          stop.add(retired.removeFirst().agents());
        }
      } else {
        stop.add(pending);
      }
      pending = null;
    }
    stop.forEach(LoadedAgents::close);
  }

  @Override
  public List<Path> watched() {
    return List.of(dir);
  }

  /** The agents of the load defined last; none before the first. */
  public synchronized List<AgentDefinition> agents() {
    return current == null ? List.of() : current.agents().agents();
  }

  /** How many replaced loads are still open for turns that use their catalogues. */
  public synchronized int retiredLoads() {
    return retired.size();
  }

  /** Stops what the agents defined last, and the replaced loads still kept, started. */
  public Future<Void> close() {
    List<LoadedAgents> stop = new ArrayList<>();
    synchronized (this) {
      if (current != null) {
        stop.add(current.agents());
      }
      retired.forEach(load -> stop.add(load.agents()));
      retired.clear();
      current = null;
    }
    return Future.join(stop.stream().map(LoadedAgents::close).toList()).mapEmpty();
  }
}
