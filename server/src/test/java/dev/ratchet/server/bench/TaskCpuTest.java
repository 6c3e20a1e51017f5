package dev.ratchet.server.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class TaskCpuTest {

  @TempDir
  Path dir;

  @Test
  void splitsATasksTimeIntoItsOwnCodeAndTheKernels() throws IOException {
    Path stat = dir.resolve("stat");
    // fields after the name: state, ppid, pgrp, session, tty, tpgid, flags, minflt, cminflt, majflt, cmajflt, utime, stime
    Files.writeString(stat, "4242 (redis-server *:6379) S 1 0 0 0 -1 4194560 0 0 0 0 150 50 0 0 20 0 5 0 9 0 0\n");

    TaskCpu cpu = TaskCpu.of(stat);

    assertSecondAndAHalfOwnHalfASecondKernel(cpu);
  }

  @Test
  void readsARedisServersCpuFromItsInfoAnswer() {
    TaskCpu before = TaskCpu.ofRedis(java.util.Map.of("used_cpu_sys", "1.250000", "used_cpu_user", "2.000000"));
    TaskCpu after = TaskCpu.ofRedis(java.util.Map.of("used_cpu_sys", "1.750000", "used_cpu_user", "3.500000"));

    TaskCpu spent = after.since(before);

    assertSecondAndAHalfOwnHalfASecondKernel(spent);
  }

  @Test
  void knowsNoShareWhereThereIsNoStatFile() {
    TaskCpu cpu = TaskCpu.of(dir.resolve("missing"));

    assertEquals(TaskCpu.UNKNOWN, cpu);
    assertEquals(-1, cpu.kernelShare());
  }

  @Test
  void countsSpinningAsTheProcesssOwnTimeAndSystemCallsAsTheKernels() throws IOException {
    assumeTrue(Files.isReadable(Path.of("/proc/self/stat")), "needs Linux's /proc");

    // each load runs until the process has had the CPU long enough: on a busy machine wall time says little
    TaskCpu before = TaskCpu.ofThisProcess();
    TaskCpu spinning = before;
    for (long spent = 0; spent < 20_000 && (spinning = TaskCpu.ofThisProcess().since(before)).userMillis() < 100; ) {
      spent += KernelDamonTest.spinFor(50);
    }

    assertTrue(spinning.userMillis() >= 100, "own time after spinning: " + spinning);

    TaskCpu before2 = TaskCpu.ofThisProcess();
    TaskCpu writing = before2;
    long deadline = System.nanoTime() + 20_000_000_000L;
    while ((writing = TaskCpu.ofThisProcess().since(before2)).kernelMillis() < 50 && System.nanoTime() < deadline) {
      writeToDevNullFor(50);
    }

    assertTrue(writing.kernelMillis() >= 50, "kernel time after write() calls: " + writing);
  }

  private static void writeToDevNullFor(long millis) throws IOException {
    ByteBuffer one = ByteBuffer.allocateDirect(1);
    try (FileChannel devNull = FileChannel.open(Path.of("/dev/null"), StandardOpenOption.WRITE)) {
      long end = System.nanoTime() + millis * 1_000_000L;
      while (System.nanoTime() < end) {
        one.clear();
        devNull.write(one);
      }
    }
  }

  /** 1.5 s in the task's own code and 0.5 s in the kernel's: a kernel share of a quarter. */
  private static void assertSecondAndAHalfOwnHalfASecondKernel(TaskCpu cpu) {
    assertEquals(1_500, cpu.userMillis());
    assertEquals(500, cpu.kernelMillis());
    assertEquals(0.25, cpu.kernelShare(), 1e-9);
  }
}
