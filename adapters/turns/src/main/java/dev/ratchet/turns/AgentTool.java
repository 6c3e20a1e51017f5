package dev.ratchet.turns;

import io.vertx.core.json.JsonObject;

/**
 * A tool of an agent's catalogue as a framework shows it to its model: the schema is the one the
 * catalogue gives, exactly as the tool's source declared it.
 *
 * @param effectClass the catalogue's wire name ({@code read}, {@code idempotent_write}, {@code non_idempotent_write})
 */
public record AgentTool(String name, String description, JsonObject inputSchema, String effectClass) {

  /** A catalogue entry as {@code GET /api/agents/{agent}/tools} lists it. */
  public static AgentTool fromJson(JsonObject json) {
    return new AgentTool(json.getString("name"), json.getString("description", ""),
        json.getJsonObject("inputSchema", new JsonObject().put("type", "object")), json.getString("effectClass"));
  }
}
