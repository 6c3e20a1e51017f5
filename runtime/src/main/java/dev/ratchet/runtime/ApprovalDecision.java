package dev.ratchet.runtime;

import io.vertx.core.json.JsonObject;

import java.util.Objects;

/**
 * A person's decision on a pending write, naming the call and the hash of the arguments they saw.
 * An approval may carry {@code arguments}: the arguments the approver edited, which the call then
 * runs with, when the tool allows edits ({@link ApprovalRule#allowsEdit()}).
 */
public record ApprovalDecision(String sessionId, CallId callId, String argumentsHash, boolean approved,
                               String approver, String reason, JsonObject arguments) {

  public ApprovalDecision {
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(callId, "callId");
    Objects.requireNonNull(argumentsHash, "argumentsHash");
    Objects.requireNonNull(approver, "approver");
    if (arguments != null && !approved) {
      throw new IllegalArgumentException("'arguments' (edited arguments) may only come with approved: true");
    }
  }

  public ApprovalDecision(String sessionId, CallId callId, String argumentsHash, boolean approved, String approver,
                          String reason) {
    this(sessionId, callId, argumentsHash, approved, approver, reason, null);
  }

  public static ApprovalDecision approve(ApprovalRequest request, String approver, String reason) {
    return new ApprovalDecision(request.sessionId(), request.callId(), request.argumentsHash(), true, approver, reason);
  }

  /** Approves {@code request} with the arguments the approver edited them to. */
  public static ApprovalDecision approveEdited(ApprovalRequest request, JsonObject arguments, String approver,
                                               String reason) {
    return new ApprovalDecision(request.sessionId(), request.callId(), request.argumentsHash(), true, approver, reason,
        Objects.requireNonNull(arguments, "arguments"));
  }

  public static ApprovalDecision reject(ApprovalRequest request, String approver, String reason) {
    return new ApprovalDecision(request.sessionId(), request.callId(), request.argumentsHash(), false, approver, reason);
  }

  /** Whether the approver edited the arguments. */
  public boolean edited() {
    return arguments != null;
  }

  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("sessionId", sessionId).put("callId", callId.value())
        .put("argumentsHash", argumentsHash).put("approved", approved).put("approver", approver)
        .put("reason", reason);
    if (arguments != null) {
      json.put("arguments", arguments.copy());
    }
    return json;
  }

  /** Parses a decision, refusing malformed input with a message that names the field. */
  public static ApprovalDecision fromJson(JsonObject json) {
    String sessionId = requireString(json, "sessionId");
    String callId = requireString(json, "callId");
    String hash = requireString(json, "argumentsHash");
    Object approved = json.getValue("approved");
    if (!(approved instanceof Boolean)) {
      throw new IllegalArgumentException("'approved' must be true or false");
    }
    String approver = requireString(json, "approver");
    Object reason = json.getValue("reason");
    if (reason != null && !(reason instanceof String)) {
      throw new IllegalArgumentException("'reason' must be a string");
    }
    Object arguments = json.getValue("arguments");
    if (arguments != null && !(arguments instanceof JsonObject)) {
      throw new IllegalArgumentException("'arguments' must be a JSON object: the edited arguments");
    }
    return new ApprovalDecision(sessionId, new CallId(callId), hash, (Boolean) approved, approver, (String) reason,
        (JsonObject) arguments);
  }

  private static String requireString(JsonObject json, String field) {
    Object v = json == null ? null : json.getValue(field);
    if (!(v instanceof String) || ((String) v).isBlank()) {
      throw new IllegalArgumentException("'" + field + "' must be a non-empty string");
    }
    return (String) v;
  }
}
