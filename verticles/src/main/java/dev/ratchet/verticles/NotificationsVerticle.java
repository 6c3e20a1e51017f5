package dev.ratchet.verticles;

import dev.ratchet.verticles.impl.WebhookDelivery;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Tells people where they already are that a write waits for their decision: on every
 * {@link Addresses#APPROVAL_REQUESTED} of this node, each configured webhook gets a signed POST
 * with the request's ids, agent and tool (never its arguments: the card shows them to whoever may
 * see them) and a deep link to the card in the dashboard. Deploy beside the runtime:
 * <pre>{@code vertx.deployVerticle(new NotificationsVerticle(NotificationOptions.fromConfig(config.getJsonObject("notifications"))));}</pre>
 */
public final class NotificationsVerticle extends VerticleBase {

  private final NotificationOptions options;
  private WebhookDelivery delivery;
  private MessageConsumer<JsonObject> consumer;

  public NotificationsVerticle(NotificationOptions options) {
    this.options = options;
  }

  @Override
  public Future<?> start() {
    delivery = new WebhookDelivery(vertx, options);
    consumer = vertx.eventBus().consumer(Addresses.APPROVAL_REQUESTED, msg -> notify(msg.body()));
    return consumer.completion();
  }

  @Override
  public Future<?> stop() {
    delivery.close();
    return consumer.unregister();
  }

  private void notify(JsonObject notice) {
    String sessionId = notice.getString("sessionId");
    String callId = notice.getString("callId");
    String link = (options.dashboardUrl() == null ? "" : options.dashboardUrl()) + "/#/inbox/" + encode(sessionId)
        + "/" + encode(callId);
    JsonObject payload = new JsonObject().put("type", "approval.requested").put("sessionId", sessionId)
        .put("turnId", notice.getString("turnId")).put("callId", callId).put("agent", notice.getString("agent"))
        .put("tool", notice.getString("tool")).put("at", System.currentTimeMillis()).put("link", link)
        .put("text", "A write waits for approval: " + notice.getString("tool") + " in session " + sessionId
            + " (agent " + notice.getString("agent") + "). " + link);
    for (NotificationOptions.Webhook hook : options.webhooks()) {
      delivery.deliver(hook, payload);
    }
  }

  private static String encode(String s) {
    return URLEncoder.encode(s == null ? "" : s, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
