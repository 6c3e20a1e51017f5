package dev.ratchet.embedded.impl;

import dev.ratchet.host.ChildEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Gives the processes a redis-server forks (its AOF rewrites and snapshots) the idle CPU policy
 * ({@code SCHED_IDLE}), so that they run on the CPU Redis and the runtime leave free instead of
 * taking a core from them.
 *
 * <p>A rewrite's child copies the whole journal, for seconds once the journal is large; where
 * Redis and the runtime share a few cores, it took one of them from the turns in flight and made
 * the tail of a turn's latency. Linux has no setting that a parent's forks inherit apart from its
 * own, so the server's children are looked for every {@value #POLL_MILLIS} ms and handed to
 * {@code chrt}. Works on Linux with {@code chrt} (util-linux) on PATH; elsewhere it does nothing.
 */
public final class IdleChildren implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(IdleChildren.class);
  public static final long POLL_MILLIS = 20;

  private final long pid;
  private final Path childrenFile;
  private final String chrt;
  private final Set<Long> handled = new HashSet<>();
  private final Thread thread;
  private volatile boolean closed;
  private boolean warned;

  private IdleChildren(long pid, Path childrenFile, String chrt) {
    this.pid = pid;
    this.childrenFile = childrenFile;
    this.chrt = chrt;
    this.thread = new Thread(this::run, "ratchet-redis-idle-children-" + pid);
    this.thread.setDaemon(true);
  }

  /** Starts watching the server's children; returns null where the platform cannot do it. */
  public static IdleChildren watch(long pid) {
    Path children = Path.of("/proc", String.valueOf(pid), "task", String.valueOf(pid), "children");
    String chrt = ChildEnvironment.onPath("chrt");
    if (!Files.isReadable(children) || chrt == null) {
      LOG.debug("redis-server's forked children keep their CPU priority: {}",
          chrt == null ? "no chrt on PATH" : "no " + children);
      return null;
    }
    IdleChildren watcher = new IdleChildren(pid, children, chrt);
    watcher.thread.start();
    return watcher;
  }

  private void run() {
    while (!closed) {
      try {
        Set<Long> now = children();
        handled.retainAll(now);
        for (Long child : now) {
          if (handled.add(child)) {
            makeIdle(child);
          }
        }
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        return;
      } catch (IOException e) {
        // the server has exited
        return;
      }
    }
  }

  private Set<Long> children() throws IOException {
    Set<Long> pids = new HashSet<>();
    for (String token : Files.readString(childrenFile).trim().split("\\s+")) {
      if (!token.isEmpty()) {
        pids.add(Long.parseLong(token));
      }
    }
    return pids;
  }

  private void makeIdle(long child) throws InterruptedException {
    String failure;
    try {
      Process p = ChildEnvironment.minimal(new ProcessBuilder(chrt, "--idle", "--pid", "0", String.valueOf(child)))
          .redirectErrorStream(true).start();
      if (!p.waitFor(5, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        failure = "chrt did not answer within 5 s";
      } else if (p.exitValue() == 0) {
        LOG.debug("redis-server {}: forked child {} runs at idle CPU priority", pid, child);
        return;
      } else {
        failure = new String(p.getInputStream().readAllBytes()).trim();
      }
    } catch (IOException e) {
      failure = e.getMessage();
    }
    // a child that ended before chrt reached it is no failure
    if (Files.exists(Path.of("/proc", String.valueOf(child))) && !warned) {
      warned = true;
      LOG.warn("redis-server {}: could not give its forked child {} idle CPU priority ({}); AOF rewrites"
          + " compete with the runtime for the CPU", pid, child, failure);
    }
  }

  @Override
  public void close() {
    closed = true;
    thread.interrupt();
  }
}
