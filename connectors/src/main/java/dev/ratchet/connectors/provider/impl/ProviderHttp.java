package dev.ratchet.connectors.provider.impl;

import dev.ratchet.connectors.provider.ProviderException;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.Redaction;
import dev.ratchet.runtime.Secret;
import dev.ratchet.runtime.ToolNotSentException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;

import java.net.ConnectException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * HTTP to a provider's REST API. The API key is read at each request; a request that cannot get
 * its key or cannot connect fails with {@link ToolNotSentException}, since nothing left the process.
 * Error text from the provider is redacted before it goes anywhere.
 */
public final class ProviderHttp {

  private final WebClient client;
  private final String baseUrl;
  private final Secret apiKey;
  private final BiConsumer<HttpRequest<Buffer>, String> auth;
  private final Duration timeout;
  private final String provider;

  public ProviderHttp(Vertx vertx, String provider, String baseUrl, Secret apiKey,
                      BiConsumer<HttpRequest<Buffer>, String> auth, Duration timeout) {
    this.client = WebClient.create(vertx, new WebClientOptions()
        .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, timeout.toMillis())));
    this.provider = provider;
    this.baseUrl = baseUrl;
    this.apiKey = apiKey;
    this.auth = auth;
    this.timeout = timeout;
  }

  public Secret apiKey() {
    return apiKey;
  }

  /** Sends one request; query values that are null are left out. The body is sent as JSON when not null. */
  public Future<HttpResponse<Buffer>> send(HttpMethod method, String path, Map<String, String> query, JsonObject body) {
    return send(method, path, query, body, Map.of());
  }

  /** As {@link #send(HttpMethod, String, Map, JsonObject)}, with extra request headers. */
  public Future<HttpResponse<Buffer>> send(HttpMethod method, String path, Map<String, String> query, JsonObject body,
                                           Map<String, String> headers) {
    String key;
    try {
      key = apiKey.reveal();
    } catch (ToolNotSentException e) {
      return Future.failedFuture(new ToolNotSentException(
          "the tool did not run, so it is safe to call again: " + provider + " API key: " + e.getMessage()));
    }
    HttpRequest<Buffer> request = client.requestAbs(method, baseUrl + path).timeout(timeout.toMillis());
    if (query != null) {
      query.forEach((k, v) -> {
        if (v != null) {
          request.addQueryParam(k, v);
        }
      });
    }
    headers.forEach(request::putHeader);
    auth.accept(request, key);
    Future<HttpResponse<Buffer>> sent = body == null ? request.send() : request.sendJsonObject(body);
    return sent.recover(err -> Future.failedFuture(neverLeft(err)
        ? new ToolNotSentException("the tool did not run, so it is safe to call again: " + provider
            + " could not be reached (" + Redaction.scrub(String.valueOf(err.getMessage())) + ")")
        : new ProviderCallException(provider + " did not answer: "
            + Redaction.scrub(String.valueOf(err.getMessage())))));
  }

  /** For catalogue and connection calls: the JSON body of a 2xx answer, or a {@link ProviderException}. */
  public Future<JsonObject> json(HttpMethod method, String path, Map<String, String> query, JsonObject body) {
    return send(method, path, query, body).compose(resp -> {
      if (resp.statusCode() / 100 != 2) {
        return Future.failedFuture(error(resp));
      }
      Buffer b = resp.body();
      return Future.succeededFuture(b == null || b.length() == 0 ? new JsonObject() : b.toJsonObject());
    });
  }

  public ProviderException error(HttpResponse<Buffer> resp) {
    ErrorCode code = resp.statusCode() == 404 ? ErrorCode.NOT_FOUND : ErrorCode.PROVIDER_ERROR;
    return new ProviderException(code, provider + " answered " + resp.statusCode() + ": " + errorText(resp));
  }

  /** The provider's error message from a response body, redacted and kept short. */
  public String errorText(HttpResponse<Buffer> resp) {
    String text = resp.bodyAsString();
    try {
      JsonObject json = resp.bodyAsJsonObject();
      Object error = json == null ? null : json.getValue("error", json.getValue("message"));
      if (error instanceof JsonObject e) {
        text = e.getString("message", e.encode());
      } else if (error != null) {
        text = String.valueOf(error);
      }
    } catch (RuntimeException notJson) {
      // keep the raw text
    }
    text = text == null ? "" : text;
    return Redaction.scrub(text.length() > 500 ? text.substring(0, 500) + "..." : text);
  }

  private static boolean neverLeft(Throwable err) {
    for (Throwable c = err; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof ConnectException || c instanceof UnknownHostException) {
        return true;
      }
    }
    return false;
  }

  /** A request that may have reached the provider; its message is already redacted. */
  public static final class ProviderCallException extends RuntimeException {
    ProviderCallException(String message) {
      super(message, null, false, false);
    }
  }
}
