package dev.ratchet.server.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/** When each turn of a phase was due and when it completed ({@link System#nanoTime()}). */
final class TurnTimes {

  private long[] due = new long[1 << 16];
  private long[] done = new long[1 << 16];
  private int size;

  synchronized void add(long dueAt, long doneAt) {
    if (size == due.length) {
      due = Arrays.copyOf(due, size * 2);
      done = Arrays.copyOf(done, size * 2);
    }
    due[size] = dueAt;
    done[size++] = doneAt;
  }

  /** Writes each turn's due time (ms since {@code start}) and latency (µs), one turn a line. */
  synchronized void write(Path file, long start) throws IOException {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < size; i++) {
      out.append(String.format(Locale.ROOT, "%.3f %d%n", (due[i] - start) / 1e6, (done[i] - due[i]) / 1000));
    }
    Files.writeString(file, out);
  }

  /** Overhead per call of the turns that ran entirely while Redis was not rewriting its AOF. */
  synchronized Latencies perCallOutside(RewriteWatch rewrites, int callsPerTurn) {
    Latencies out = new Latencies();
    for (int i = 0; i < size; i++) {
      if (!rewrites.overlaps(due[i], done[i])) {
        out.add((done[i] - due[i]) / 1000 / callsPerTurn);
      }
    }
    return out;
  }
}
