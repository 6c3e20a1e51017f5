package dev.ratchet.verticles.impl;

import dev.ratchet.connectors.SlackConnector;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.IdempotencyKey;
import dev.ratchet.runtime.ToolInvocation;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Posts an approval request's notice to a Slack channel through the Slack connector's
 * {@code post_channel_message}: one attempt, whose call id comes from the request's, so the
 * connector's own idempotency marks it. A failure is logged (the connector's error, which never
 * holds the token), and the request waits in the inbox all the same.
 */
public final class SlackNotice {

  private static final Logger LOG = LoggerFactory.getLogger(SlackNotice.class);
  static final long TIMEOUT_MILLIS = 15_000;

  private SlackNotice() {
  }

  public static void post(SlackConnector slack, String channel, JsonObject payload) {
    JsonObject args = new JsonObject().put("channel", channel).put("text", payload.getString("text"));
    String session = "notifications";
    CallId callId = CallId.of(session, "approval-" + payload.getString("callId"), 0);
    ToolInvocation invocation = new ToolInvocation(session, callId, IdempotencyKey.of(callId, args), 1, args,
        System.currentTimeMillis() + TIMEOUT_MILLIS);
    slack.postChannelMessage().execute(invocation).onComplete(ar -> {
      if (ar.failed()) {
        LOG.warn("slack notice for {} to {}: {}", payload.getString("callId"), channel, ar.cause().getMessage());
      } else if (ar.result().error() != null) {
        LOG.warn("slack notice for {} to {}: {}", payload.getString("callId"), channel, ar.result().error());
      }
    });
  }
}
