package dev.ratchet.runtime;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Attempts and exponential backoff with jitter for calls that may be retried (reads and
 * idempotent writes). Non-idempotent writes always get exactly one attempt, whatever their policy says.
 */
public record RetryPolicy(int maxAttempts, Duration initialBackoff, Duration maxBackoff, double multiplier) {

  public static final RetryPolicy DEFAULT = new RetryPolicy(3, Duration.ofMillis(100), Duration.ofSeconds(5), 2.0);
  public static final RetryPolicy NONE = new RetryPolicy(1, Duration.ZERO, Duration.ZERO, 1.0);

  public RetryPolicy {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1");
    }
    if (multiplier < 1.0) {
      throw new IllegalArgumentException("multiplier must be at least 1.0");
    }
  }

  public static RetryPolicy attempts(int maxAttempts) {
    return new RetryPolicy(maxAttempts, DEFAULT.initialBackoff, DEFAULT.maxBackoff, DEFAULT.multiplier);
  }

  /** Delay before attempt {@code nextAttempt} (2 for the first retry), with full jitter in [50%, 100%]. */
  public long backoffMillis(int nextAttempt) {
    double base = initialBackoff.toMillis() * Math.pow(multiplier, Math.max(0, nextAttempt - 2));
    long capped = (long) Math.min(base, maxBackoff.toMillis());
    if (capped <= 0) {
      return 0;
    }
    return capped / 2 + ThreadLocalRandom.current().nextLong(capped / 2 + 1);
  }
}
