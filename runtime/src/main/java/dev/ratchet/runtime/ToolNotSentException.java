package dev.ratchet.runtime;

/**
 * Thrown (or used to fail a tool's future) when a request provably never left the process:
 * missing or expired credentials, connection refused, a local validation error. Such a call is
 * {@code failed} and safe to call again, never {@code outcome_unknown}.
 * <p>{@link #retryAfterMillis()} says when another attempt could get further (a source that is
 * reconnecting): a call that is retried waits at least that long, rather than failing again at once.
 * One made with {@link #notRetryable} (credentials the service refused) is not tried again at all:
 * another attempt would be refused the same way.
 */
public class ToolNotSentException extends RuntimeException {

  private final long retryAfterMillis;
  private final boolean worthRetrying;

  public ToolNotSentException(String message) {
    this(message, 0);
  }

  public ToolNotSentException(String message, Throwable cause) {
    super(message, cause, false, false);
    this.retryAfterMillis = 0;
    this.worthRetrying = true;
  }

  /** Not sent, and not worth another attempt for {@code retryAfterMillis}. */
  public ToolNotSentException(String message, long retryAfterMillis) {
    this(message, Math.max(0, retryAfterMillis), true);
  }

  private ToolNotSentException(String message, long retryAfterMillis, boolean worthRetrying) {
    super(message, null, false, false);
    this.retryAfterMillis = retryAfterMillis;
    this.worthRetrying = worthRetrying;
  }

  /** Not sent, and another attempt would fail the same way (the service refused the credentials). */
  public static ToolNotSentException notRetryable(String message) {
    return new ToolNotSentException(message, 0, false);
  }

  /** Whether another attempt could succeed; false for {@link #notRetryable}. */
  public boolean worthRetrying() {
    return worthRetrying;
  }

  /** How long another attempt should wait; 0 when it may come at once. */
  public long retryAfterMillis() {
    return retryAfterMillis;
  }
}
