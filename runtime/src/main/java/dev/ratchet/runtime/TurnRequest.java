package dev.ratchet.runtime;

import java.util.Objects;

/**
 * A turn submitted to a session of an agent. The session's caller (the resource id of the tenant or
 * user it acts for) is fixed by its first turn or message: a later request with another caller, or
 * with a caller for a session created without one, fails with {@code CALLER_MISMATCH} and journals
 * nothing; a null {@code callerId} accepts whatever caller the session has. A session this turn
 * creates records {@code creator}, the user or token that submitted it (null: none), for the
 * four-eyes rule.
 * <pre>{@code
 * ratchet.submit(TurnRequest.of("orders", "session-42", turn).callerId("tenant-7"));
 * }</pre>
 */
public record TurnRequest(String agent, String sessionId, Turn turn, String callerId, String creator) {

  public TurnRequest {
    Objects.requireNonNull(turn, "turn");
  }

  /** A turn for the session {@code sessionId} of {@code agent}, with no caller and no creator. */
  public static TurnRequest of(String agent, String sessionId, Turn turn) {
    return new TurnRequest(agent, sessionId, turn, null, null);
  }

  /** This request for the session of {@code callerId}. */
  public TurnRequest callerId(String callerId) {
    return new TurnRequest(agent, sessionId, turn, callerId, creator);
  }

  /** This request recording {@code creator} in a session it creates. */
  public TurnRequest creator(String creator) {
    return new TurnRequest(agent, sessionId, turn, callerId, creator);
  }
}
