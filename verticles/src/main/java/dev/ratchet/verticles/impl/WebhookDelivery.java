package dev.ratchet.verticles.impl;

import dev.ratchet.verticles.NotificationOptions;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import java.util.UUID;

/**
 * POSTs a payload to a webhook, signed and retried. The signature is
 * {@code X-Ratchet-Signature: sha256=<hex HMAC-SHA256(secret, timestamp + "." + body)>} with the
 * timestamp in {@code X-Ratchet-Timestamp}, so a receiver can refuse old or altered deliveries;
 * {@code X-Ratchet-Delivery} stays the same across the retries of one delivery. Any answer but a
 * 2xx, or no answer, is retried after a wait that doubles each time, until the attempts run out.
 * Logs name the webhook's host, never its secret or the payload.
 */
public final class WebhookDelivery {

  private static final Logger LOG = LoggerFactory.getLogger(WebhookDelivery.class);
  static final long MAX_WAIT_MILLIS = 60_000;

  private final Vertx vertx;
  private final NotificationOptions options;
  private final HttpClient client;

  public WebhookDelivery(Vertx vertx, NotificationOptions options) {
    this.vertx = vertx;
    this.options = options;
    this.client = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout(5_000));
  }

  public void deliver(NotificationOptions.Webhook hook, JsonObject payload) {
    attempt(hook, payload.encode(), UUID.randomUUID().toString(), 1);
  }

  private void attempt(NotificationOptions.Webhook hook, String body, String deliveryId, int attempt) {
    String timestamp = Long.toString(System.currentTimeMillis());
    RequestOptions request = new RequestOptions().setMethod(HttpMethod.POST).setAbsoluteURI(hook.url())
        .setTimeout(10_000).putHeader("Content-Type", "application/json")
        .putHeader("X-Ratchet-Timestamp", timestamp).putHeader("X-Ratchet-Delivery", deliveryId)
        .putHeader("X-Ratchet-Signature", "sha256=" + sign(hook.secret(), timestamp + "." + body));
    client.request(request).compose(req -> req.send(Buffer.buffer(body))).onComplete(ar -> {
      int status = ar.succeeded() ? ar.result().statusCode() : 0;
      if (status >= 200 && status < 300) {
        return;
      }
      String why = ar.succeeded() ? "answered " + status : ar.cause().getClass().getSimpleName();
      if (attempt >= options.maxAttempts()) {
        LOG.warn("webhook {}: delivery {} given up after {} attempts ({})", host(hook), deliveryId, attempt, why);
        return;
      }
      long wait = Math.min(MAX_WAIT_MILLIS, options.retryMillis() << Math.min(20, attempt - 1));
      LOG.info("webhook {}: attempt {} {}; retrying in {} ms", host(hook), attempt, why, wait);
      vertx.setTimer(wait, t -> attempt(hook, body, deliveryId, attempt + 1));
    });
  }

  /** Hex HMAC-SHA256 of {@code data} under {@code secret}: what a receiver recomputes to check a delivery. */
  public static String sign(String secret, String data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal(data.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this Java", e);
    }
  }

  private static String host(NotificationOptions.Webhook hook) {
    return java.net.URI.create(hook.url()).getHost();
  }

  public void close() {
    client.close();
  }
}
