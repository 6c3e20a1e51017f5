package dev.ratchet.runtime.agent;

import io.vertx.core.json.JsonObject;

/**
 * The end of one round of the agent loop: the answer to the user's message(s).
 *
 * @param status {@code answered} (the model answered without tool calls), {@code turn_limit} (the
 *               configured number of tool turns was reached) or {@code model_failed} (the model
 *               could not be reached within its retry policy; the session waits for the next message)
 * @param step   the loop step of the model response that ended the round (0 when none)
 */
public record AgentReply(String sessionId, String status, String text, long step, String error) {

  public static final String ANSWERED = "answered";
  public static final String TURN_LIMIT = "turn_limit";
  public static final String MODEL_FAILED = "model_failed";

  public boolean answered() {
    return ANSWERED.equals(status);
  }

  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("sessionId", sessionId).put("status", status).put("step", step);
    if (text != null) {
      json.put("text", text);
    }
    if (error != null) {
      json.put("error", error);
    }
    return json;
  }

  public static AgentReply fromJson(JsonObject json) {
    return new AgentReply(json.getString("sessionId"), json.getString("status"), json.getString("text"),
        json.getLong("step", 0L), json.getString("error"));
  }
}
