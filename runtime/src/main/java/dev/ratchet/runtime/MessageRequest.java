package dev.ratchet.runtime;

/**
 * A user message sent to a session of an agent that has a model. The caller rule of
 * {@link TurnRequest} applies. A {@code messageId} given again is not appended twice (null: a new
 * message each time); a session the message creates records {@code creator} (null: none).
 * <pre>{@code
 * ratchet.send(MessageRequest.of("orders", "session-42", "where is order 1002?").callerId("tenant-7"));
 * }</pre>
 */
public record MessageRequest(String agent, String sessionId, String text, String callerId, String creator,
                             String messageId) {

  /** A new message for the session {@code sessionId} of {@code agent}, with no caller and no creator. */
  public static MessageRequest of(String agent, String sessionId, String text) {
    return new MessageRequest(agent, sessionId, text, null, null, null);
  }

  /** This message for the session of {@code callerId}. */
  public MessageRequest callerId(String callerId) {
    return new MessageRequest(agent, sessionId, text, callerId, creator, messageId);
  }

  /** This message recording {@code creator} in a session it creates. */
  public MessageRequest creator(String creator) {
    return new MessageRequest(agent, sessionId, text, callerId, creator, messageId);
  }

  /** This message with the id that makes sending it again harmless. */
  public MessageRequest messageId(String messageId) {
    return new MessageRequest(agent, sessionId, text, callerId, creator, messageId);
  }
}
