package dev.ratchet.verticles.http;

import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A blocking HTTP client for tests: either a logged-in person (cookie + CSRF token) or a bearer token. */
final class Http {

  /** One answer: status, raw body, and the body as JSON when it is JSON. */
  record Answer(int status, String body, HttpResponse<String> raw) {
    JsonObject json() {
      return new JsonObject(body);
    }
  }

  private final String base;
  private final HttpClient client;
  private final String bearer;
  private String csrf;

  private Http(String base, String bearer) {
    this.base = base;
    this.bearer = bearer;
    this.client = HttpClient.newBuilder().cookieHandler(new CookieManager()).connectTimeout(Duration.ofSeconds(5))
        .build();
  }

  static Http anonymous(String base) {
    return new Http(base, null);
  }

  static Http bearer(String base, String token) {
    return new Http(base, token);
  }

  static Http login(String base, String name, String password) {
    Http http = new Http(base, null);
    Answer a = http.post("/login", new JsonObject().put("name", name).put("password", password));
    if (a.status() != 200) {
      throw new IllegalStateException("login failed: " + a.status() + " " + a.body());
    }
    http.csrf = a.json().getString("csrfToken");
    return http;
  }

  Http withoutCsrf() {
    csrf = null;
    return this;
  }

  Answer get(String path) {
    return send(request(path).GET());
  }

  Answer delete(String path) {
    return send(request(path).DELETE());
  }

  Answer post(String path, JsonObject body) {
    return postRaw(path, body.encode());
  }

  Answer postRaw(String path, String body) {
    return send(request(path).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  private HttpRequest.Builder request(String path) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(40));
    if (bearer != null) {
      b.header("Authorization", "Bearer " + bearer);
    }
    if (csrf != null) {
      b.header("X-CSRF-Token", csrf);
    }
    return b;
  }

  private Answer send(HttpRequest.Builder b) {
    try {
      HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
      return new Answer(r.statusCode(), r.body(), r);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** A GET whose answer may be an endless event stream: a stream is closed unread, its body given as "(event stream)". */
  Answer getOrStream(String path) {
    try {
      HttpResponse<java.io.InputStream> r = client.send(request(path).GET().build(),
          HttpResponse.BodyHandlers.ofInputStream());
      String body;
      try (java.io.InputStream in = r.body()) {
        body = r.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream") ? "(event stream)"
            : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      }
      return new Answer(r.statusCode(), body, null);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  HttpClient client() {
    return client;
  }
}
