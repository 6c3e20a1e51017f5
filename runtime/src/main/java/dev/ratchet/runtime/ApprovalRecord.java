package dev.ratchet.runtime;

import io.vertx.core.json.JsonObject;

/**
 * The approval story of one call: why it was asked, and who decided what, when and why.
 *
 * @param status {@code pending}, {@code approved}, {@code rejected} or {@code expired}
 * @param editedArguments the arguments the approver changed the call's to before approving, which it
 *                        runs with; null when they were not edited
 * @param originalArgumentsHash the hash of the arguments the approver was shown, when they were edited
 */
public record ApprovalRecord(String status, String askedBecause, long requestedAt, String approver,
                             String reason, long decidedAt, JsonObject editedArguments,
                             String originalArgumentsHash) {

  public ApprovalRecord(String status, String askedBecause, long requestedAt, String approver, String reason,
                        long decidedAt) {
    this(status, askedBecause, requestedAt, approver, reason, decidedAt, null, null);
  }

  public boolean approved() {
    return "approved".equals(status);
  }

  /** Whether the approver edited the arguments: the call runs with {@link #editedArguments()}. */
  public boolean edited() {
    return editedArguments != null;
  }

  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("status", status).put("askedBecause", askedBecause)
        .put("requestedAt", requestedAt);
    if (approver != null) {
      json.put("approver", approver);
    }
    if (reason != null) {
      json.put("reason", reason);
    }
    if (decidedAt > 0) {
      json.put("decidedAt", decidedAt);
    }
    if (editedArguments != null) {
      json.put("editedArguments", editedArguments.copy()).put("editedBy", approver);
      if (originalArgumentsHash != null) {
        json.put("originalArgumentsHash", originalArgumentsHash);
      }
    }
    return json;
  }

  public static ApprovalRecord fromJson(JsonObject json) {
    if (json == null) {
      return null;
    }
    return new ApprovalRecord(json.getString("status"), json.getString("askedBecause"),
        json.getLong("requestedAt", 0L), json.getString("approver"), json.getString("reason"),
        json.getLong("decidedAt", 0L), json.getJsonObject("editedArguments"),
        json.getString("originalArgumentsHash"));
  }
}
