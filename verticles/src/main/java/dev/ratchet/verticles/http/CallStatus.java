package dev.ratchet.verticles.http;

import dev.ratchet.runtime.Outcome;

/**
 * The status of a call in a session's timeline (the HTTP API's {@code calls[].status}), with the
 * label the dashboard shows for it. The last three are a call's {@link Outcome}s.
 */
public enum CallStatus {
  PENDING("pending", "not started yet"),
  RUNNING("running", "running"),
  WAITING_FOR_APPROVAL("waiting_for_approval", "waiting for approval"),
  SUCCEEDED("succeeded", "succeeded"),
  FAILED("failed", "failed"),
  OUTCOME_UNKNOWN("outcome_unknown", "outcome unknown");

  private final String wireName;
  private final String label;

  CallStatus(String wireName, String label) {
    this.wireName = wireName;
    this.label = label;
  }

  public String wireName() {
    return wireName;
  }

  public String label() {
    return label;
  }

  /** Whether the call has its outcome. */
  public boolean terminal() {
    return outcome() != null;
  }

  /** The outcome this status is, or null while the call has none. */
  public Outcome outcome() {
    for (Outcome o : Outcome.values()) {
      if (o.wireName().equals(wireName)) {
        return o;
      }
    }
    return null;
  }
}
