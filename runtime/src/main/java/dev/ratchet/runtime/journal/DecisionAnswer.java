package dev.ratchet.runtime.journal;

/** The journal's answer to an approval decision. */
public enum DecisionAnswer {
  ACCEPTED,
  UNKNOWN_CALL,
  ALREADY_DECIDED,
  STALE,
  EXPIRED
}
