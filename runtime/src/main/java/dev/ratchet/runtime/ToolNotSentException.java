package dev.ratchet.runtime;

/**
 * Thrown (or used to fail a tool's future) when a request provably never left the process:
 * missing or expired credentials, connection refused, a local validation error. Such a call is
 * {@code failed} and safe to call again, never {@code outcome_unknown}.
 */
public class ToolNotSentException extends RuntimeException {

  public ToolNotSentException(String message) {
    super(message, null, false, false);
  }

  public ToolNotSentException(String message, Throwable cause) {
    super(message, cause, false, false);
  }
}
