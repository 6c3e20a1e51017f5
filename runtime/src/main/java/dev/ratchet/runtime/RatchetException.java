package dev.ratchet.runtime;

/**
 * An error a caller can act on, with a stable machine-readable {@link ErrorCode} (for example
 * {@code INVALID_REQUEST}, {@code STALE_DECISION}, {@code UNKNOWN_CALL}, {@code FENCED},
 * {@code JOURNAL_UNAVAILABLE}).
 */
public class RatchetException extends RuntimeException {

  private final ErrorCode code;

  public RatchetException(ErrorCode code, String message) {
    super(message, null, false, false);
    this.code = code;
  }

  public RatchetException(ErrorCode code, String message, Throwable cause) {
    super(message, cause, false, false);
    this.code = code;
  }

  /** The code's wire name. */
  public String code() {
    return code.wireName();
  }

  public ErrorCode errorCode() {
    return code;
  }

  /** Whether {@code err} is a Ratchet error with this code. */
  public static boolean is(Throwable err, ErrorCode code) {
    return err instanceof RatchetException && ((RatchetException) err).code == code;
  }
}
