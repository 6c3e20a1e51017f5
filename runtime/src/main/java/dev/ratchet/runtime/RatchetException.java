package dev.ratchet.runtime;

/**
 * An error a caller can act on, with a stable machine-readable code (for example
 * {@code INVALID_REQUEST}, {@code STALE_DECISION}, {@code UNKNOWN_CALL}, {@code FENCED},
 * {@code JOURNAL_UNAVAILABLE}).
 */
public class RatchetException extends RuntimeException {

  private final String code;

  public RatchetException(String code, String message) {
    super(message, null, false, false);
    this.code = code;
  }

  public RatchetException(String code, String message, Throwable cause) {
    super(message, cause, false, false);
    this.code = code;
  }

  public String code() {
    return code;
  }
}
