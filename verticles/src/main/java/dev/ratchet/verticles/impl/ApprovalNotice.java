package dev.ratchet.verticles.impl;

import dev.ratchet.verticles.Addresses;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * The cross-session notice that a write asks for approval ({@link Addresses#APPROVAL_REQUESTED}):
 * ids and the tool's name only, never the arguments, so a listener learns that something waits and
 * reads the rest through the tenant-scoped inbox.
 */
final class ApprovalNotice {

  private ApprovalNotice() {
  }

  /** Publishes the notice when {@code event} is a session's {@code approval.requested} step event. */
  static void publish(Vertx vertx, String sessionId, JsonObject event) {
    if (!"approval.requested".equals(event.getString("type"))) {
      return;
    }
    JsonObject data = event.getJsonObject("data", new JsonObject());
    vertx.eventBus().publish(Addresses.APPROVAL_REQUESTED, new JsonObject().put("sessionId", sessionId)
        .put("turnId", event.getString("turnId")).put("callId", event.getString("callId"))
        .put("tool", data.getString("tool")).put("agent", data.getString("agent")));
  }
}
