package dev.ratchet.server.reload;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.verticles.RatchetNode;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reloads the agents' definitions without a restart: loads them all with the {@link AgentLoader}
 * and hands them to {@link RatchetNode#define}, so new turns see the new catalogues and turns in flight
 * finish with theirs. A load or a definition that fails changes nothing; either way the outcome is
 * logged and, when a report file is given, written to it (atomically) for {@code ratchet reload}.
 * Reloads run one at a time, in the order they were asked for.
 */
public final class Reloader {

  private static final Logger LOG = LoggerFactory.getLogger(Reloader.class);

  private final RatchetNode ratchet;
  private final AgentLoader loader;
  private final Path reportFile;
  private final AtomicLong sequence = new AtomicLong();
  private Future<JsonObject> last = Future.succeededFuture();

  public Reloader(RatchetNode ratchet, AgentLoader loader, Path reportFile) {
    this.ratchet = ratchet;
    this.loader = loader;
    this.reportFile = reportFile;
  }

  public AgentLoader loader() {
    return loader;
  }

  /**
   * Reloads once the reloads asked for before have ended; completes with the report
   * {@code {"reload": n, "pid", "trigger", "status": "reloaded"|"failed", "agents": [{"name", "catalogue"}], "error"}},
   * never failed.
   */
  public synchronized Future<JsonObject> reload(String trigger) {
    long n = sequence.incrementAndGet();
    last = last.transform(ar -> once(n, trigger));
    return last;
  }

  private Future<JsonObject> once(long n, String trigger) {
    Future<List<AgentDefinition>> loaded;
    try {
      loaded = loader.load();
    } catch (RuntimeException e) {
      loaded = Future.failedFuture(e);
    }
    boolean[] wasLoaded = {false};
    return loaded.compose(definitions -> {
      wasLoaded[0] = true;
      return ratchet.define(definitions);
    }).andThen(ar -> {
      if (wasLoaded[0]) {
        loader.settled(ar.succeeded());
      }
    }).map(catalogs -> {
      JsonArray agents = new JsonArray();
      for (ToolCatalog c : catalogs) {
        agents.add(new JsonObject().put("name", c.agent()).put("catalogue", c.version()));
      }
      LOG.info("reload {} ({}): {} agent(s) defined: {}", n, trigger, catalogs.size(), agents.encode());
      return new JsonObject().put("reload", n).put("trigger", trigger).put("status", "reloaded").put("agents", agents);
    }).otherwise(err -> {
      String message = err.getMessage() == null ? err.toString() : err.getMessage();
      LOG.warn("reload {} ({}) failed; nothing changed: {}", n, trigger, message);
      return new JsonObject().put("reload", n).put("trigger", trigger).put("status", "failed").put("error", message);
    }).map(report -> {
      report.put("pid", ProcessHandle.current().pid());
      write(report);
      return report;
    });
  }

  private void write(JsonObject report) {
    if (reportFile == null) {
      return;
    }
    try {
      Path tmp = reportFile.resolveSibling(reportFile.getFileName() + ".tmp");
      Files.writeString(tmp, report.encode(), StandardCharsets.UTF_8);
      Files.move(tmp, reportFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      LOG.warn("reload {}: could not write its report to {}: {}", report.getLong("reload"), reportFile, e.getMessage());
    }
  }
}
