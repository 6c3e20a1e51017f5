package dev.ratchet.runtime;

import java.util.HashMap;
import java.util.Map;

/**
 * The type of every event a session's journal holds and its event stream publishes, with its wire
 * name ({@code call.started}) and what it means.
 */
public enum EventType {
  SESSION_CLAIMED("a runtime claimed the session, under a new fencing epoch"),
  SESSION_FENCED("this runtime lost the session to a newer claim (published, not journaled)"),
  TURN_SUBMITTED("a turn and its calls were accepted"),
  TURN_COMPLETED("every call of the turn has its outcome"),
  CALL_STARTED("an attempt of a call began"),
  CALL_ATTEMPT_FAILED("an attempt of a call failed and will be retried"),
  CALL_COMPLETED("a call's outcome was journaled"),
  CALL_RECONCILED("an operator set the outcome of a call whose outcome was unknown"),
  APPROVAL_REQUESTED("a call waits for an approver"),
  APPROVAL_DECIDED("an approver approved or rejected a call, or its request expired"),
  MESSAGE_USER("a user's message to the agent"),
  MESSAGE_ASSISTANT("the agent's answer to a message"),
  MODEL_RESPONSE("a model's response in the agent loop, with the tool calls it asked for"),
  MODEL_ATTEMPT_FAILED("a model request failed and will be retried"),
  MODEL_FAILED("the agent loop gave up on the model: the message has no answer");

  private static final Map<String, EventType> BY_WIRE_NAME = new HashMap<>();

  static {
    for (EventType t : values()) {
      BY_WIRE_NAME.put(t.wireName, t);
    }
  }

  private final String wireName;
  private final String meaning;

  EventType(String meaning) {
    // the constant's name in lower case, a dot after the subject: CALL_ATTEMPT_FAILED is call.attempt_failed
    this.wireName = name().toLowerCase(java.util.Locale.ROOT).replaceFirst("_", ".");
    this.meaning = meaning;
  }

  public String wireName() {
    return wireName;
  }

  public String meaning() {
    return meaning;
  }

  /** The type of that wire name, or null for one this version does not know. */
  public static EventType ofWireName(String name) {
    return name == null ? null : BY_WIRE_NAME.get(name);
  }

  @Override
  public String toString() {
    return wireName;
  }
}
