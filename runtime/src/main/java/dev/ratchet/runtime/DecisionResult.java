package dev.ratchet.runtime;

/** What became of an approval decision: journaled, or why it was refused. */
public enum DecisionResult {
  /** Journaled: the waiting call goes on (approved) or is refused (rejected). */
  ACCEPTED,
  /** No call of that id waits for a decision in that session. */
  UNKNOWN_CALL,
  /** The call was decided before. */
  ALREADY_DECIDED,
  /** The decision names arguments other than those the request showed. */
  STALE,
  /** The request timed out before the decision came. */
  EXPIRED
}
