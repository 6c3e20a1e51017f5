package dev.ratchet.verticles;

/** The event-bus addresses of Ratchet's API; docs/EVENT-BUS.md documents their messages. */
public final class Addresses {

  /** Request/reply: submit a turn; the reply acknowledges once the turn is journaled. */
  public static final String SUBMIT = "ratchet.turns.submit";
  /** Request/reply: approve or reject a pending write. */
  public static final String DECIDE = "ratchet.approvals.decide";
  /** Request/reply: list pending approvals across sessions. */
  public static final String PENDING = "ratchet.approvals.pending";
  /** Request/reply: a completed turn's results, for callers that lost their reply address. */
  public static final String RESULTS = "ratchet.turns.results";
  /**
   * Request/reply: a user message for an agent with a model; the reply acknowledges once the
   * message is journaled, and the agent's answer goes to the message's {@code replyAddress}.
   */
  public static final String MESSAGES_SEND = "ratchet.messages.send";
  /** Request/reply: a session's conversation (user messages, model responses, answers). */
  public static final String CONVERSATION = "ratchet.messages.conversation";
  /**
   * Published: an approval decision was journaled, as {@code {"sessionId", "callId"}}. The node
   * that runs the session lets the waiting write go on (or skips it); dashboards may refresh.
   */
  public static final String APPROVAL_DECIDED = "ratchet.approvals.decided";
  /**
   * Published: a write asks for approval, as {@code {"sessionId", "turnId", "callId", "tool"}}, by the
   * node that runs the session. Inboxes and notifications wake up on it.
   */
  public static final String APPROVAL_REQUESTED = "ratchet.approvals.requested";

  private Addresses() {
  }

  /** Published: every step event of a session, including {@code turn.completed} with its results. */
  public static String events(String sessionId) {
    return "ratchet.session." + sessionId + ".events";
  }

  static String sessionCommands(String sessionId) {
    return "ratchet.session." + sessionId + ".commands";
  }

}
