package dev.ratchet.verticles;

import dev.ratchet.connectors.Connections;
import dev.ratchet.connectors.SlackConnector;
import dev.ratchet.verticles.impl.SlackNotice;
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
 * see them) and a deep link to the card in the dashboard; with {@code notifications.slack}, the same text
 * goes to a Slack channel through the Slack connector. Deploy beside the runtime:
 * <pre>{@code vertx.deployVerticle(new NotificationsVerticle(NotificationOptions.fromConfig(config.getJsonObject("notifications"))));}</pre>
 */
public final class NotificationsVerticle extends VerticleBase {

  private final NotificationOptions options;
  private final Connections connections;
  private WebhookDelivery delivery;
  private SlackConnector slack;
  private MessageConsumer<JsonObject> consumer;

  public NotificationsVerticle(NotificationOptions options) {
    this(options, null);
  }

  /** With the connections that {@link NotificationOptions#slackConnection()} is looked up in. */
  public NotificationsVerticle(NotificationOptions options, Connections connections) {
    this.options = options;
    this.connections = connections;
  }

  @Override
  public Future<?> start() {
    delivery = new WebhookDelivery(vertx, options);
    if (options.slackConnection() != null) {
      if (connections == null) {
        return Future.failedFuture(new IllegalArgumentException("notifications.slack names connection '"
            + options.slackConnection() + "', but no connections were given"));
      }
      try {
        slack = SlackConnector.connect(vertx, connections.connection(options.slackConnection()));
      } catch (RuntimeException e) {
        return Future.failedFuture(e);
      }
    }
    consumer = vertx.eventBus().consumer(Addresses.APPROVAL_REQUESTED, msg -> notify(msg.body()));
    return consumer.completion();
  }

  @Override
  public Future<?> stop() {
    delivery.close();
    if (slack != null) {
      slack.close();
    }
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
    if (slack != null) {
      SlackNotice.post(slack, options.slackChannel(), payload);
    }
  }

  private static String encode(String s) {
    return URLEncoder.encode(s == null ? "" : s, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
