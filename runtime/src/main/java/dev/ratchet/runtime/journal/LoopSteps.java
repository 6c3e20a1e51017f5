package dev.ratchet.runtime.journal;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * The journal port's steps of the agent loop (user messages, model responses, round ends), part
 * of {@link SessionJournal}.
 */
public interface LoopSteps {

  /**
   * Appends a user message to the session's conversation once per message id and journals
   * {@code message.user}; a repeated id journals nothing and answers where the first one is.
   * Creates the session like {@link TurnSteps#submitTurn}, with its agent and caller rules, and
   * lists it for recovery.
   */
  Future<ConversationAppend> messageUser(UserMessage message);

  /**
   * Records a model response for loop step {@code step} once, before any of its tool calls run, and
   * journals {@code model.response}. Fails with {@code STEP_OUT_OF_ORDER} when the step does not
   * follow the last recorded one; a step already recorded journals nothing and answers its first entry.
   */
  Future<ConversationAppend> modelResponse(String sessionId, long epoch, long step, String turnId, JsonObject entry,
                                           JsonObject eventData);

  /**
   * Ends a round once per {@code endId}: appends {@code entry} to the conversation and journals an
   * event of {@code eventType} ({@code message.assistant} or {@code model.failed}); a repeated end
   * id journals nothing and answers where the first one is.
   */
  Future<ConversationAppend> roundEnded(String sessionId, long epoch, String endId, String eventType,
                                        JsonObject entry, JsonObject eventData);
}
