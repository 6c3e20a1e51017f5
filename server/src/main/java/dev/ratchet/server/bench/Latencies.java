package dev.ratchet.server.bench;

import java.util.Arrays;

/** Latency samples in microseconds, kept in a growable array so that recording does not allocate. */
final class Latencies {

  private long[] samples = new long[1 << 16];
  private int size;

  synchronized void add(long micros) {
    if (size == samples.length) {
      samples = Arrays.copyOf(samples, size * 2);
    }
    samples[size++] = micros;
  }

  synchronized int size() {
    return size;
  }

  /** The given percentile in milliseconds. */
  synchronized double percentileMillis(double pct) {
    if (size == 0) {
      return 0;
    }
    long[] sorted = Arrays.copyOf(samples, size);
    Arrays.sort(sorted);
    int i = (int) Math.ceil(pct / 100.0 * size) - 1;
    return sorted[Math.max(0, Math.min(size - 1, i))] / 1000.0;
  }
}
