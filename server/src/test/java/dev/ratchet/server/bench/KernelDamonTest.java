package dev.ratchet.server.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class KernelDamonTest {

  @TempDir
  Path sysfs;

  @Test
  void namesTheMonitorsThatAreOnWithWhatTheySampleAndDo() throws IOException {
    kdamond("0", "on", 79, "paddr", 500_000, "pageout");
    kdamond("1", "off", -1, "vaddr", 5_000, "stat");

    List<KernelDamon.Monitor> monitors = KernelDamon.running(sysfs).monitors();

    assertEquals(List.of(new KernelDamon.Monitor(79, "paddr", 500_000, List.of("pageout"))), monitors);
    assertEquals("kdamond pid 79 (paddr, sampling every 500 ms, schemes: pageout)", monitors.get(0).describe());
  }

  @Test
  void findsNoMonitorWhereTheKernelHasNoDamon() {
    KernelDamon none = KernelDamon.running(sysfs.resolve("no-such-directory"));

    assertTrue(none.monitors().isEmpty());
    assertEquals(0, none.cpuMillis());
  }

  @Test
  void countsTheCpuOfTheMonitorsThread() throws IOException {
    Path ownStat = Path.of("/proc/self/stat");
    assumeTrue(Files.isReadable(ownStat), "needs Linux's /proc");
    long pid = ProcessHandle.current().pid();
    kdamond("0", "on", pid, "paddr", 500_000, "pageout");
    KernelDamon damon = KernelDamon.running(sysfs);
    long before = damon.cpuMillis();

    // spins until the process has had the CPU for a while: on a busy machine wall time says little
    long spent = 0;
    while (damon.cpuMillis() - before < 100 && spent < 20_000) {
      spent += spinFor(50);
    }

    assertTrue(damon.cpuMillis() - before >= 100,
        "CPU read after " + spent + " ms of spinning: " + (damon.cpuMillis() - before) + " ms");
  }

  @Test
  void readsAStatFileWhoseCommandNameHoldsSpacesAndParentheses() throws IOException {
    Path stat = sysfs.resolve("stat");
    // fields after the name: state, ppid, pgrp, session, tty, tpgid, flags, minflt, cminflt, majflt, cmajflt, utime, stime
    Files.writeString(stat, "79 (kdamond) (0)) S 2 0 0 0 -1 2129984 0 0 0 0 250 50 0 0 20 0 1 0 5 0 0\n");

    assertEquals(3_000, KernelDamon.cpuMillis(stat));
  }

  private void kdamond(String name, String state, long pid, String operations, long sampleMicros, String action)
      throws IOException {
    Path k = sysfs.resolve(name);
    Path context = k.resolve("contexts/0");
    Files.createDirectories(context.resolve("monitoring_attrs/intervals"));
    Files.createDirectories(context.resolve("schemes/0"));
    Files.writeString(k.resolve("state"), state + "\n");
    Files.writeString(k.resolve("pid"), pid + "\n");
    Files.writeString(context.resolve("operations"), operations + "\n");
    Files.writeString(context.resolve("monitoring_attrs/intervals/sample_us"), sampleMicros + "\n");
    Files.writeString(context.resolve("schemes/0/action"), action + "\n");
  }

  /** Spins on this thread for about {@code millis} of wall time; returns the milliseconds spun. */
  static long spinFor(long millis) {
    long start = System.nanoTime();
    long x = 0;
    while (System.nanoTime() - start < millis * 1_000_000L) {
      x += Long.numberOfTrailingZeros(x + System.nanoTime());
    }
    return (System.nanoTime() - start) / 1_000_000L + (x == 42 ? 1 : 0);
  }
}
