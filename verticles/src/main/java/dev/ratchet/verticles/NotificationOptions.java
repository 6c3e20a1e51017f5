package dev.ratchet.verticles;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * Where to tell people that a write waits for them ({@code notifications} in the configuration):
 * webhooks, each with its URL and the secret that signs its payloads, and the dashboard's public
 * address for the deep link to the card. See {@link NotificationsVerticle}.
 */
public final class NotificationOptions {

  /** One webhook: where to POST, and the secret of its {@code X-Ratchet-Signature} (HMAC-SHA256). */
  public record Webhook(String url, String secret) {
    public Webhook {
      URI uri = URI.create(url);
      if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
        throw new IllegalArgumentException("notifications.webhooks: '" + url + "' is not an http(s) URL");
      }
      if (secret == null || secret.length() < 16) {
        throw new IllegalArgumentException("notifications.webhooks: the secret of " + uri.getHost()
            + " must have at least 16 characters");
      }
    }

    @Override
    public String toString() {
      return "Webhook[" + url + "]";
    }
  }

  private final List<Webhook> webhooks = new ArrayList<>();
  private String dashboardUrl;
  private String slackConnection;
  private String slackChannel;
  private int maxAttempts = 5;
  private long retryMillis = 1_000;

  public static NotificationOptions create() {
    return new NotificationOptions();
  }

  /** Reads {@code {"webhooks": [{url, secret}], "dashboardUrl", "maxAttempts", "retryMillis"}}; null gives none. */
  public static NotificationOptions fromConfig(JsonObject json) {
    NotificationOptions o = new NotificationOptions();
    if (json == null) {
      return o;
    }
    for (Object w : json.getJsonArray("webhooks", new JsonArray())) {
      if (!(w instanceof JsonObject hook)) {
        throw new IllegalArgumentException("notifications.webhooks: each entry is {\"url\", \"secret\"}");
      }
      o.webhook(hook.getString("url"), hook.getString("secret"));
    }
    o.dashboardUrl(json.getString("dashboardUrl"));
    JsonObject slack = json.getJsonObject("slack", new JsonObject());
    if (slack.getString("connection") != null || slack.getString("channel") != null) {
      if (slack.getString("connection") == null || slack.getString("channel") == null) {
        throw new IllegalArgumentException("notifications.slack needs both 'connection' (a Slack connection's name)"
            + " and 'channel'");
      }
      o.slack(slack.getString("connection"), slack.getString("channel"));
    }
    o.maxAttempts = json.getInteger("maxAttempts", o.maxAttempts);
    o.retryMillis = json.getLong("retryMillis", o.retryMillis);
    if (o.maxAttempts < 1 || o.retryMillis < 1) {
      throw new IllegalArgumentException("notifications.maxAttempts and notifications.retryMillis must be at least 1");
    }
    return o;
  }

  public NotificationOptions webhook(String url, String secret) {
    webhooks.add(new Webhook(url, secret));
    return this;
  }

  /** The dashboard's address as people open it, e.g. {@code https://ratchet.example.com}; null: links are relative. */
  public NotificationOptions dashboardUrl(String url) {
    this.dashboardUrl = url == null || url.isBlank() ? null : url.replaceAll("/+$", "");
    return this;
  }

  /** Attempts per delivery, the first included. */
  public NotificationOptions maxAttempts(int attempts) {
    this.maxAttempts = attempts;
    return this;
  }

  /** The wait before the first retry; each later one waits twice as long as the one before. */
  public NotificationOptions retryMillis(long millis) {
    this.retryMillis = millis;
    return this;
  }

  /** Also post each request to {@code channel} through the Slack connection named {@code connection}. */
  public NotificationOptions slack(String connection, String channel) {
    this.slackConnection = connection;
    this.slackChannel = channel;
    return this;
  }

  /** The Slack connection's name, or null for no Slack message. */
  public String slackConnection() {
    return slackConnection;
  }

  public String slackChannel() {
    return slackChannel;
  }

  public List<Webhook> webhooks() {
    return List.copyOf(webhooks);
  }

  public String dashboardUrl() {
    return dashboardUrl;
  }

  public int maxAttempts() {
    return maxAttempts;
  }

  public long retryMillis() {
    return retryMillis;
  }

  public boolean any() {
    return !webhooks.isEmpty() || slackConnection != null;
  }
}
