package dev.ratchet.verticles.http;

import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.WireNames;

/**
 * The status of a call in a session's timeline (the HTTP API's {@code calls[].status}), with the
 * label the dashboard shows for it. The last three are a call's {@link Outcome}s.
 */
public enum TimelineStatus {
  PENDING("not started yet"),
  RUNNING("running"),
  WAITING_FOR_APPROVAL("waiting for approval"),
  SUCCEEDED("succeeded"),
  FAILED("failed"),
  OUTCOME_UNKNOWN("outcome unknown");

  private final String wireName = WireNames.of(this, '_');
  private final String label;

  TimelineStatus(String label) {
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
      if (o.name().equals(name())) {
        return o;
      }
    }
    return null;
  }
}
