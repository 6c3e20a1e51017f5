package dev.ratchet.verticles.impl;

import dev.ratchet.runtime.DecisionResult;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.RatchetException;

/**
 * One mapping from Ratchet's failures to {@link ErrorCode}s and their HTTP-style statuses, shared by the event-bus API and
 * the HTTP API so that both answer the same failure the same way.
 */
public final class ErrorCodes {

  private ErrorCodes() {
  }

  /** A refused decision as the error a caller sees. */
  public static RatchetException refusal(DecisionResult answer) {
    switch (answer) {
      case STALE:
        return new RatchetException(ErrorCode.STALE_DECISION, "the decision names arguments other than the ones this call"
            + " waits with; reload the request and decide again");
      case UNKNOWN_CALL:
        return new RatchetException(ErrorCode.UNKNOWN_CALL, "no approval was requested for this call");
      case ALREADY_DECIDED:
        return new RatchetException(ErrorCode.ALREADY_DECIDED, "this call was already decided");
      default:
        return new RatchetException(ErrorCode.APPROVAL_EXPIRED, "the approval request expired, which counts as rejected");
    }
  }

  /** A result asked for a turn the session does not hold: never accepted, or removed by retention; not pending. */
  public static RatchetException unknownTurn(String sessionId, String turnId) {
    return new RatchetException(ErrorCode.UNKNOWN_TURN, "session '" + sessionId + "' holds no turn '" + turnId
        + "': it was never accepted (a refused turn is not journaled) or retention removed it");
  }

  /** The HTTP status of a failure: its code's, 500 for anything that is not a Ratchet error. */
  public static int status(Throwable err) {
    return errorCode(err).httpStatus();
  }

  public static ErrorCode errorCode(Throwable err) {
    return err instanceof RatchetException ? ((RatchetException) err).errorCode() : ErrorCode.INTERNAL;
  }

  public static String code(Throwable err) {
    return errorCode(err).wireName();
  }
}
