package dev.ratchet.embedded.impl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What a pid names on this host: a running redis-server, or nothing any more. A process that has
 * exited but that nobody has reaped yet (a zombie) counts as gone: it holds no files or sockets.
 */
public final class LocalProcesses {

  private LocalProcesses() {
  }

  /** Whether {@code pid} is a running process (not a zombie). */
  public static boolean running(long pid) {
    Optional<ProcessHandle> handle = ProcessHandle.of(pid);
    if (handle.isEmpty() || !handle.get().isAlive()) {
      return false;
    }
    Path stat = Path.of("/proc", String.valueOf(pid), "stat");
    try {
      String s = Files.readString(stat, StandardCharsets.UTF_8);
      int end = s.lastIndexOf(')');
      return end < 0 || end + 2 >= s.length() || s.charAt(end + 2) != 'Z';
    } catch (IOException e) {
      // no /proc here: the handle's word stands
      return true;
    }
  }

  /**
   * Whether {@code pid} is a running redis-server. A process whose command this account cannot
   * see counts as one: a pid file is then never taken for stale while a server may still use the
   * files it names.
   */
  public static boolean runsRedis(long pid) {
    if (!running(pid)) {
      return false;
    }
    return commandLine(pid).map(c -> c.contains("redis-server")).orElse(true);
  }

  /** The command line of {@code pid} as the process shows it (a redis-server puts its title there). */
  public static Optional<String> commandLine(long pid) {
    Path cmdline = Path.of("/proc", String.valueOf(pid), "cmdline");
    try {
      String s = Files.readString(cmdline, StandardCharsets.UTF_8).replace('\0', ' ').trim();
      if (!s.isEmpty()) {
        return Optional.of(s);
      }
    } catch (IOException e) {
      // not Linux, or not readable by this account
    }
    Optional<ProcessHandle> handle = ProcessHandle.of(pid);
    return handle.flatMap(h -> h.info().commandLine().or(() -> h.info().command()));
  }

  /** Waits until {@code pid} is gone; whether it went within {@code millis}. */
  public static boolean awaitExit(long pid, long millis) {
    long deadline = System.currentTimeMillis() + millis;
    while (running(pid)) {
      if (System.currentTimeMillis() > deadline) {
        return false;
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return !running(pid);
      }
    }
    return true;
  }
}
