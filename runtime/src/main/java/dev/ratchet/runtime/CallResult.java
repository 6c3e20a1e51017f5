package dev.ratchet.runtime;

import io.vertx.core.json.JsonObject;

/**
 * The record of one call given back to the model, in the model's order.
 *
 * @param skipped  true when the call was not run because an earlier write of its turn did not succeed
 * @param truncated true when a successful write's result exceeded the size limit and was cut
 * @param durationMillis how long the call ran: from its first attempt's start to its outcome, the
 *                  wait for approval not included; for a call recovered after a restart, from its
 *                  journaled start, the time the runtime was down included
 * @param approvalWaitMillis how long the call waited for a person's decision, 0 when it asked none
 */
public record CallResult(
    int index,
    CallId callId,
    String tool,
    String modelCallId,
    EffectClass effectClass,
    Outcome outcome,
    Object result,
    String error,
    int attempts,
    boolean skipped,
    boolean truncated,
    ApprovalRecord approval,
    long durationMillis,
    String reconciledBy,
    long approvalWaitMillis) {

  public CallResult(int index, CallId callId, String tool, String modelCallId, EffectClass effectClass,
                    Outcome outcome, Object result, String error, int attempts, boolean skipped, boolean truncated,
                    ApprovalRecord approval, long durationMillis, String reconciledBy) {
    this(index, callId, tool, modelCallId, effectClass, outcome, result, error, attempts, skipped, truncated,
        approval, durationMillis, reconciledBy, 0);
  }

  /** The prefix of every error for a call that provably never reached the provider. */
  public static final String NOT_RUN_PREFIX = "the tool did not run, so it is safe to call again";

  public JsonObject toJson() {
    JsonObject json = new JsonObject()
        .put("index", index)
        .put("callId", callId.value())
        .put("tool", tool)
        .put("outcome", outcome.wireName())
        .put("attempts", attempts)
        .put("skipped", skipped)
        .put("durationMs", durationMillis);
    if (approvalWaitMillis > 0) {
      json.put("approvalWaitMs", approvalWaitMillis);
    }
    if (effectClass != null) {
      json.put("effectClass", effectClass.wireName());
    }
    if (modelCallId != null) {
      json.put("modelCallId", modelCallId);
    }
    if (result != null) {
      json.put("result", result);
    }
    if (error != null) {
      json.put("error", error);
    }
    if (truncated) {
      json.put("truncated", true);
    }
    if (approval != null) {
      json.put("approval", approval.toJson());
      if (approval.edited()) {
        // the call ran with arguments a person changed: whoever reads the result must know
        json.put("edited", new JsonObject().put("by", approval.approver()).put("reason", approval.reason())
            .put("arguments", approval.editedArguments().copy()));
      }
    }
    if (reconciledBy != null) {
      json.put("reconciledBy", reconciledBy);
    }
    return json;
  }

  public static CallResult fromJson(JsonObject json) {
    String ec = json.getString("effectClass");
    return new CallResult(
        json.getInteger("index", 0),
        new CallId(json.getString("callId")),
        json.getString("tool"),
        json.getString("modelCallId"),
        ec == null ? null : EffectClass.fromWireName(ec),
        Outcome.fromWireName(json.getString("outcome")),
        json.getValue("result"),
        json.getString("error"),
        json.getInteger("attempts", 0),
        json.getBoolean("skipped", false),
        json.getBoolean("truncated", false),
        ApprovalRecord.fromJson(json.getJsonObject("approval")),
        json.getLong("durationMs", 0L),
        json.getString("reconciledBy"),
        json.getLong("approvalWaitMs", 0L));
  }
}
