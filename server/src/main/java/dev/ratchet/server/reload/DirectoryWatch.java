package dev.ratchet.server.reload;

import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.List;

/**
 * Reloads when a file in a watched directory is created, changed or deleted. Editors write a file
 * in several steps, so a burst of changes makes one reload, {@code debounceMillis} after the last.
 */
public final class DirectoryWatch implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(DirectoryWatch.class);

  private final Vertx vertx;
  private final Reloader reloader;
  private final long debounceMillis;
  private final WatchService watcher;
  private final Thread thread;
  private long timer = -1;

  private DirectoryWatch(Vertx vertx, Reloader reloader, long debounceMillis, WatchService watcher) {
    this.vertx = vertx;
    this.reloader = reloader;
    this.debounceMillis = debounceMillis;
    this.watcher = watcher;
    this.thread = new Thread(this::watch, "ratchet-agents-watch");
    this.thread.setDaemon(true);
  }

  /** Watches the directories (those that exist); null when there is none to watch. */
  public static DirectoryWatch start(Vertx vertx, Reloader reloader, List<Path> directories, long debounceMillis)
      throws IOException {
    List<Path> existing = directories.stream().filter(java.nio.file.Files::isDirectory).toList();
    if (existing.isEmpty()) {
      return null;
    }
    WatchService watcher = FileSystems.getDefault().newWatchService();
    for (Path dir : existing) {
      dir.register(watcher, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
          StandardWatchEventKinds.ENTRY_DELETE);
    }
    DirectoryWatch watch = new DirectoryWatch(vertx, reloader, debounceMillis, watcher);
    watch.thread.start();
    LOG.info("reload: watching {} for changes", existing);
    return watch;
  }

  private void watch() {
    try {
      while (true) {
        WatchKey key = watcher.take();
        boolean changed = !key.pollEvents().isEmpty();
        key.reset();
        if (changed) {
          changed();
        }
      }
    } catch (InterruptedException | ClosedWatchServiceException e) {
      // closed: stop watching
    }
  }

  private synchronized void changed() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
    timer = vertx.setTimer(debounceMillis, t -> {
      synchronized (this) {
        timer = -1;
      }
      reloader.reload("file change");
    });
  }

  @Override
  public void close() throws IOException {
    watcher.close();
  }
}
