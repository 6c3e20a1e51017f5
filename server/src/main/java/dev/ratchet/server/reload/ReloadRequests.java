package dev.ratchet.server.reload;

import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reloads when {@code ratchet reload} leaves a request file ({@link ControlFiles#request()}). A
 * file works where a signal may not: a server started under {@code nohup} ignores SIGHUP, and the
 * JVM cannot take it back. The request is looked for a few times a second, on a worker.
 */
public final class ReloadRequests implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ReloadRequests.class);
  static final long PERIOD_MILLIS = 200;

  private final Vertx vertx;
  private final long timer;

  private ReloadRequests(Vertx vertx, Reloader reloader, Path request) {
    this.vertx = vertx;
    this.timer = vertx.setPeriodic(PERIOD_MILLIS, t -> vertx.executeBlocking(() -> take(request)).onSuccess(taken -> {
      if (taken) {
        reloader.reload("ratchet reload");
      }
    }));
  }

  /** Starts looking for requests; a request left by an earlier server of the directory is dropped first. */
  public static ReloadRequests start(Vertx vertx, Reloader reloader, ControlFiles files) throws IOException {
    Files.deleteIfExists(files.request());
    return new ReloadRequests(vertx, reloader, files.request());
  }

  private static boolean take(Path request) {
    try {
      return Files.deleteIfExists(request);
    } catch (IOException e) {
      LOG.warn("reload: cannot take the request {}: {}", request, e.getMessage());
      return false;
    }
  }

  @Override
  public void close() {
    vertx.cancelTimer(timer);
  }
}
