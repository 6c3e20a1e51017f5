package dev.ratchet.verticles.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU a Linux process or thread has used so far, split into its own code (user) and the kernel
 * working for it (system calls, waking other threads, page faults), read from its {@code /proc}
 * {@code stat} file. On a virtual machine whose wakeups pass through the hypervisor the kernel's
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
