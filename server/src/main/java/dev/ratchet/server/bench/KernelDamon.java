package dev.ratchet.server.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The Linux kernel's DAMON memory monitors running on this machine, read from sysfs. A kdamond
 * thread that samples the physical memory of a small virtual machine takes a core for tens of
 * milliseconds at each sample, and every turn in flight waits for it; the bench names such monitors
 * and the CPU they took during a phase, so that a tail they made is not read as Ratchet's.
 */
final class KernelDamon {

  /** Where the kernel publishes its DAMON monitors. */
  static final Path SYSFS = Path.of("/sys/kernel/mm/damon/admin/kdamonds");

  /** One running monitor: its kernel thread, what it monitors, how often it samples, what its schemes do. */
  record Monitor(long pid, String operations, long sampleMicros, List<String> actions) {

    String describe() {
      return String.format("kdamond pid %d (%s, sampling every %s%s)", pid, operations, interval(sampleMicros),
          actions.isEmpty() ? "" : ", schemes: " + String.join(", ", actions));
    }

    private static String interval(long micros) {
      return micros >= 1000 ? micros / 1000 + " ms" : micros + " µs";
    }
  }

  private final List<Monitor> monitors;

  private KernelDamon(List<Monitor> monitors) {
    this.monitors = List.copyOf(monitors);
  }

  /** The monitors that are on under {@code sysfs}; none where the kernel has no DAMON or it cannot be read. */
  static KernelDamon running(Path sysfs) {
    List<Monitor> found = new ArrayList<>();
    try (Stream<Path> kdamonds = Files.list(sysfs)) {
      for (Path k : kdamonds.filter(Files::isDirectory).sorted().toList()) {
        if ("on".equals(read(k.resolve("state"))) && number(read(k.resolve("pid"))) > 0) {
          found.add(monitor(k));
        }
      }
    } catch (IOException | RuntimeException e) {
      // no DAMON in this kernel, or sysfs not readable: nothing to report
    }
    return new KernelDamon(found);
  }

  private static Monitor monitor(Path kdamond) throws IOException {
    String operations = "";
    long sample = 0;
    List<String> actions = new ArrayList<>();
    Path contexts = kdamond.resolve("contexts");
    if (Files.isDirectory(contexts)) {
      try (Stream<Path> cs = Files.list(contexts)) {
        for (Path c : cs.filter(Files::isDirectory).sorted().toList()) {
          operations = read(c.resolve("operations"));
          sample = number(read(c.resolve("monitoring_attrs/intervals/sample_us")));
          Path schemes = c.resolve("schemes");
          if (Files.isDirectory(schemes)) {
            try (Stream<Path> ss = Files.list(schemes)) {
              for (Path s : ss.filter(Files::isDirectory).sorted().toList()) {
                String action = read(s.resolve("action"));
                if (!action.isEmpty()) {
                  actions.add(action);
                }
              }
            }
          }
        }
      }
    }
    return new Monitor(number(read(kdamond.resolve("pid"))), operations.isEmpty() ? "?" : operations, sample, actions);
  }

  List<Monitor> monitors() {
    return monitors;
  }

  /** CPU the monitors' kernel threads have used so far, from {@code /proc/<pid>/stat}; 0 where unreadable. */
  long cpuMillis() {
    long total = 0;
    for (Monitor m : monitors) {
      total += cpuMillis(Path.of("/proc", Long.toString(m.pid()), "stat"));
    }
    return total;
  }

  /** User plus system CPU of the task whose {@code stat} file this is, in milliseconds; 0 where unreadable. */
  static long cpuMillis(Path stat) {
    return TaskCpu.of(stat).totalMillis();
  }

  private static String read(Path p) {
    try {
      return Files.readString(p).trim();
    } catch (IOException e) {
      return "";
    }
  }

  private static long number(String s) {
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
