package dev.ratchet.runtime.journal;

import io.vertx.core.json.JsonObject;

/**
 * A user message as {@link SessionJournal#messageUser} journals it.
 *
 * @param sessionId the session
 * @param epoch the owner's epoch (J4)
 * @param agent the agent a new session is created for
 * @param callerId the caller, with the rules of {@link TurnSubmission#callerId} (null: none)
 * @param creator who created a new session (null: none)
 * @param messageId the message's id: a message is journaled once per id
 * @param entry the conversation entry
 * @param eventData the {@code message.user} event's data
 */
public record UserMessage(String sessionId, long epoch, String agent, String callerId, String creator,
                          String messageId, JsonObject entry, JsonObject eventData) {
}
