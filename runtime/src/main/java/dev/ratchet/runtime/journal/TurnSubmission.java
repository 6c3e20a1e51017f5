package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.Turn;

/**
 * A turn as {@link SessionJournal#submitTurn} journals it, with what the step records alongside:
 * {@link #of} for a plain submission, the constructor for the rest.
 *
 * @param sessionId the session
 * @param epoch the owner's epoch (J4)
 * @param agent the agent a new session is created for
 * @param callerId the caller a new session gets, and that an existing one must have (null: accepts
 *     the session's caller)
 * @param creator who created a new session (null: none)
 * @param turn the turn
 * @param catalogue the version of the agent's catalogue the turn was validated against, recorded
 *     under {@link Turn#CATALOGUE} (null: none)
 * @param replyAddress the event-bus address a new turn's results go to, recorded under
 *     {@link Turn#REPLY_ADDRESS}, so that a node that resumes the turn answers it (null: none)
 * @param index whether the session is listed for recovery and among the recent sessions
 * @param firstWrite a write journaled as started (J2) in the same step if the turn is new (null: none)
 */
public record TurnSubmission(String sessionId, long epoch, String agent, String callerId, String creator, Turn turn,
                             String catalogue, String replyAddress, boolean index, CallStart firstWrite) {

  /** {@code turn} of {@code agent}'s session, listed for recovery, with no caller, creator or first write. */
  public static TurnSubmission of(String sessionId, long epoch, String agent, Turn turn) {
    return new TurnSubmission(sessionId, epoch, agent, null, null, turn, null, null, true, null);
  }

  /** This submission from {@code callerId}. */
  public TurnSubmission withCaller(String callerId) {
    return new TurnSubmission(sessionId, epoch, agent, callerId, creator, turn, catalogue, replyAddress, index,
        firstWrite);
  }
}
