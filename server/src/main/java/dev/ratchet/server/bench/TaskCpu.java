package dev.ratchet.server.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The CPU a process has used so far, split into its own code (user) and the kernel working for it
 * (system calls, waking other threads, page faults): a Linux task's from its {@code /proc} {@code stat}
 * file, a Redis server's from its {@code INFO cpu}. On a virtual machine whose wakeups pass through the hypervisor the kernel's
 * share is what grows when a load stops batching, so the bench prints it next to the CPU per call.
 */
record TaskCpu(long userMillis, long kernelMillis) {

  /** What is read where there is no {@code /proc}: nothing, so no share is printed. */
  static final TaskCpu UNKNOWN = new TaskCpu(0, 0);

  /** {@code USER_HZ}: what Linux reports to user space whatever the kernel's own tick. */
  private static final long CLOCK_TICKS = 100;

  /** This JVM, all its threads. */
  static TaskCpu ofThisProcess() {
    return of(Path.of("/proc/self/stat"));
  }

  /** The task whose {@code stat} file this is; {@link #UNKNOWN} where it cannot be read. */
  static TaskCpu of(Path stat) {
    try {
      String text = Files.readString(stat);
      // the command name may hold spaces and parentheses: the fields that follow start after the last ')'
      String[] f = text.substring(text.lastIndexOf(')') + 2).trim().split("\\s+");
      return new TaskCpu(Long.parseLong(f[11]) * 1000 / CLOCK_TICKS, Long.parseLong(f[12]) * 1000 / CLOCK_TICKS);
    } catch (IOException | RuntimeException e) {
      return UNKNOWN;
    }
  }

  /** A Redis server, its own threads included, from the fields of its {@code INFO cpu} answer. */
  static TaskCpu ofRedis(Map<String, String> infoCpu) {
    return new TaskCpu(seconds(infoCpu, "used_cpu_user"), seconds(infoCpu, "used_cpu_sys"));
  }

  private static long seconds(Map<String, String> info, String key) {
    try {
      return Math.round(Double.parseDouble(info.getOrDefault(key, "0")) * 1000);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  long totalMillis() {
    return userMillis + kernelMillis;
  }

  TaskCpu since(TaskCpu earlier) {
    return new TaskCpu(userMillis - earlier.userMillis, kernelMillis - earlier.kernelMillis);
  }

  /** The kernel's part of the CPU, between 0 and 1; -1 when no CPU was counted. */
  double kernelShare() {
    return totalMillis() <= 0 ? -1 : kernelMillis / (double) totalMillis();
  }
}
