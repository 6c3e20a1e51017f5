package dev.ratchet.runtime;

import io.vertx.core.json.JsonObject;

/**
 * The approval story of one call: why it was asked, and who decided what, when and why.
 *
 * @param status {@code pending}, {@code approved}, {@code rejected} or {@code expired}
 */
public record ApprovalRecord(String status, String askedBecause, long requestedAt, String approver,
                             String reason, long decidedAt) {

  public boolean approved() {
    return "approved".equals(status);
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
    return json;
  }

  public static ApprovalRecord fromJson(JsonObject json) {
    if (json == null) {
      return null;
    }
    return new ApprovalRecord(json.getString("status"), json.getString("askedBecause"),
        json.getLong("requestedAt", 0L), json.getString("approver"), json.getString("reason"),
        json.getLong("decidedAt", 0L));
  }
}
