package dev.ratchet.verticles.impl;

import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.journal.DecisionAnswer;

/**
 * One mapping from Ratchet's error codes to HTTP-style statuses, shared by the event-bus API and
 * the HTTP API so that both answer the same failure the same way.
 */
public final class ErrorCodes {

  private ErrorCodes() {
  }

  /** A refused decision as the error a caller sees. */
  public static RatchetException refusal(DecisionAnswer answer) {
    switch (answer) {
      case STALE:
        return new RatchetException("STALE_DECISION", "the decision names arguments other than the ones this call"
            + " waits with; reload the request and decide again");
      case UNKNOWN_CALL:
        return new RatchetException("UNKNOWN_CALL", "no approval was requested for this call");
      case ALREADY_DECIDED:
        return new RatchetException("ALREADY_DECIDED", "this call was already decided");
      default:
        return new RatchetException("APPROVAL_EXPIRED", "the approval request expired, which counts as rejected");
    }
  }

  public static int status(Throwable err) {
    switch (code(err)) {
      case "INVALID_REQUEST":
      case "INVALID_ID":
      case "TOO_MANY_CALLS":
      case "ARGUMENTS_TOO_LARGE":
        return 400;
      case "UNAUTHENTICATED":
        return 401;
      case "FORBIDDEN":
      case "CALLER_MISMATCH":
      case "FOUR_EYES":
        return 403;
      case "UNKNOWN_AGENT":
      case "UNKNOWN_CALL":
      case "UNKNOWN_SESSION":
      case "NOT_FOUND":
        return 404;
      case "TURN_ID_REUSED":
      case "STALE_DECISION":
      case "ALREADY_DECIDED":
      case "APPROVAL_EXPIRED":
      case "AGENT_MISMATCH":
      case "NOT_UNKNOWN":
      case "NO_MODEL":
        return 409;
      case "TURN_EXPIRED":
        return 410;
      case "PAYLOAD_TOO_LARGE":
        return 413;
      case "JOURNAL_UNAVAILABLE":
      case "FENCED":
        return 503;
      default:
        return 500;
    }
  }

  public static String code(Throwable err) {
    return err instanceof RatchetException ? ((RatchetException) err).code() : "INTERNAL";
  }
}
