package dev.ratchet.runtime;

import io.vertx.core.json.JsonObject;

/**
 * A write waiting for a person's decision. An approver decides by naming {@link #callId()} and
 * {@link #argumentsHash()}: a decision for other arguments is refused.
 *
 * @param expiresAt epoch milliseconds after which the request counts as rejected, or 0 for never
 */
public record ApprovalRequest(
    String agent,
    String sessionId,
    String turnId,
    CallId callId,
    String tool,
    EffectClass effectClass,
    JsonObject arguments,
    String argumentsHash,
    String askedBecause,
    long requestedAt,
    long expiresAt) {

  public JsonObject toJson() {
    return new JsonObject()
        .put("agent", agent)
        .put("sessionId", sessionId)
        .put("turnId", turnId)
        .put("callId", callId.value())
        .put("tool", tool)
        .put("effectClass", effectClass.wireName())
        .put("arguments", arguments)
        .put("argumentsHash", argumentsHash)
        .put("askedBecause", askedBecause)
        .put("requestedAt", requestedAt)
        .put("expiresAt", expiresAt);
  }

  public static ApprovalRequest fromJson(JsonObject json) {
    return new ApprovalRequest(json.getString("agent"), json.getString("sessionId"), json.getString("turnId"),
        new CallId(json.getString("callId")), json.getString("tool"),
        EffectClass.fromWireName(json.getString("effectClass")), json.getJsonObject("arguments"),
        json.getString("argumentsHash"), json.getString("askedBecause"), json.getLong("requestedAt", 0L),
        json.getLong("expiresAt", 0L));
  }
}
