package dev.ratchet.server.bench;

import dev.ratchet.runtime.Turn;
import dev.ratchet.verticles.RatchetNode;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Turns submitted at a fixed rate, whatever the runtime's answers: the latency a user sees at a
 * given load. Each turn's latency counts from the moment it was due, so a runtime that falls
 * behind is charged for the wait (no coordinated omission). Turns go round-robin over enough
 * sessions that one session rarely has two turns in flight.
 */
final class OpenLoop {

  /** What one open-loop phase produced; {@code turnsLate} never completed before the phase ended plus a grace period. */
  record Result(double offeredCallsPerSec, double achievedCallsPerSec, long turns, long turnsLate,
                Latencies latencies, Latencies overheadPerCall, TurnTimes times, long turnsFailed,
                String firstFailure, long completedCalls) {
  }

  private final String run = UUID.randomUUID().toString().substring(0, 6);
  private long turnsSoFar;

  /**
   * One phase; phases of one instance reuse the same sessions (so a warm-up phase leaves them
   * deployed) and never reuse a turn id.
   */
  Result run(RatchetNode ratchet, Workload.Mix mix, double callsPerSec, int sessions, long millis)
      throws InterruptedException {
    int perTurn = mix.calls.size();
    double turnsPerNano = callsPerSec / perTurn / 1e9;
    Latencies latencies = new Latencies();
    Latencies overhead = new Latencies();
    TurnTimes times = new TurnTimes();
    AtomicLong issued = new AtomicLong();
    AtomicLong completed = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    java.util.concurrent.atomic.AtomicReference<String> firstFailure = new java.util.concurrent.atomic.AtomicReference<>();
    long firstTurn = turnsSoFar;
    long start = System.nanoTime();
    long end = start + millis * 1_000_000L;
    // the arrivals come from a thread of their own, as requests from outside would: a generator on
    // one of the runtime's event loops would be delayed by the work it measures
    Thread arrivals = new Thread(() -> {
      for (long i = 0; ; i++) {
        long dueAt = start + (long) (i / turnsPerNano);
        if (dueAt >= end) {
          return;
        }
        long wait = dueAt - System.nanoTime();
        if (wait > 0) {
          java.util.concurrent.locks.LockSupport.parkNanos(wait);
        }
        String session = "o-" + run + "-" + (i % sessions);
        issued.incrementAndGet();
        ratchet.submit(Workload.AGENT, session, new Turn("t" + (firstTurn + i), mix.calls)).onComplete(ar -> {
          if (ar.succeeded()) {
            long doneAt = System.nanoTime();
            long micros = (doneAt - dueAt) / 1000;
            latencies.add(micros);
            overhead.add(micros / perTurn);
            times.add(dueAt, doneAt);
            completed.incrementAndGet();
          } else {
            failed.incrementAndGet();
            firstFailure.compareAndSet(null, String.valueOf(ar.cause()));
          }
        });
      }
    }, "bench-arrivals");
    arrivals.start();
    arrivals.join();
    long graceUntil = System.currentTimeMillis() + 5_000;
    while (completed.get() + failed.get() < issued.get() && System.currentTimeMillis() < graceUntil) {
      Thread.sleep(10);
    }
    turnsSoFar += issued.get();
    double seconds = millis / 1000.0;
    return new Result(callsPerSec, completed.get() * perTurn / seconds, issued.get(),
        issued.get() - completed.get() - failed.get(), latencies, overhead, times, failed.get(), firstFailure.get(),
        completed.get() * perTurn);
  }
}
