package dev.ratchet.connectors.slack;

import dev.ratchet.connectors.Connection;
import dev.ratchet.connectors.impl.HttpFailures;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * Calls Slack Web API methods and maps what Slack documents to branches: HTTP 429 and
 * {@code ratelimited} are retryable; {@code internal_error}, {@code fatal_error}, 5xx, a body that
 * is not JSON and a connection lost after sending may have applied a write, so writes end
 * {@code uncertain}; other {@code ok:false} errors are {@code rejected}.
 */
public final class SlackApi {

  public static final String DEFAULT_BASE_URL = "https://slack.com/api";

  // Slack: "It's possible some aspect of the operation succeeded before the error was raised."
  private static final Set<String> MAY_HAVE_APPLIED = Set.of("internal_error", "fatal_error");
  private static final Set<String> TRY_AGAIN = Set.of("ratelimited", "rate_limited", "service_unavailable");

  private final Vertx vertx;
  private final WebClient client;
  private final Connection connection;
  private final String baseUrl;

  public SlackApi(Vertx vertx, WebClient client, Connection connection) {
    this.vertx = vertx;
    this.client = client;
    this.connection = connection;
    String base = connection.configString("baseUrl", DEFAULT_BASE_URL);
    this.baseUrl = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
  }

  public String baseUrl() {
    return baseUrl;
  }

  /** A write: POST with a JSON body. */
  public Future<SlackReply> write(String method, JsonObject body, ToolInvocation invocation, Duration timeout) {
    return call(HttpMethod.POST, method, body, invocation, timeout, true);
  }

  /** A read: GET with query parameters. */
  public Future<SlackReply> read(String method, Map<String, String> query, ToolInvocation invocation,
                                 Duration timeout) {
    JsonObject params = new JsonObject();
    query.forEach(params::put);
    return call(HttpMethod.GET, method, params, invocation, timeout, false);
  }

  private Future<SlackReply> call(HttpMethod httpMethod, String method, JsonObject params, ToolInvocation invocation,
                                  Duration timeout, boolean write) {
    // the token may be re-read from a file: keep that off the event loop
    return vertx.executeBlocking(() -> connection.revealCredential("botToken"))
        .compose(token -> {
          HttpRequest<Buffer> request = client.requestAbs(httpMethod, baseUrl + "/" + method)
              .bearerTokenAuthentication(token)
              .timeout(timeoutMillis(invocation, timeout));
          Future<HttpResponse<Buffer>> sent;
          if (write) {
            request.putHeader("Content-Type", "application/json; charset=utf-8");
            sent = request.sendBuffer(params.toBuffer());
          } else {
            params.forEach(e -> request.addQueryParam(e.getKey(), String.valueOf(e.getValue())));
            sent = request.send();
          }
          return sent.transform(ar -> {
            if (ar.succeeded()) {
              return Future.succeededFuture(answer(method, ar.result(), write));
            }
            if (HttpFailures.neverSent(ar.cause())) {
              return Future.failedFuture(HttpFailures.asNotSent("Slack " + method, ar.cause()));
            }
            return Future.succeededFuture(lost(method, ar.cause(), write));
          });
        });
  }

  private SlackReply lost(String method, Throwable cause, boolean write) {
    String what = "connection to Slack lost during " + method + " (" + HttpFailures.describe(cause) + ")";
    return SlackReply.ended(write
        ? ToolResult.uncertain(what + " after the request was sent; it may have been applied")
        : ToolResult.retryable(what, 0));
  }

  private SlackReply answer(String method, HttpResponse<Buffer> response, boolean write) {
    int status = response.statusCode();
    if (status == 429) {
      long after = HttpFailures.retryAfterMillis(response.getHeader("Retry-After"));
      return SlackReply.ended(ToolResult.retryable("Slack rate-limited " + method + " (HTTP 429, retry after "
          + after + " ms)", after));
    }
    if (status >= 500) {
      String what = "Slack answered " + method + " with HTTP " + status;
      return SlackReply.ended(write ? ToolResult.uncertain(what + "; the request may have been applied")
          : ToolResult.retryable(what, HttpFailures.retryAfterMillis(response.getHeader("Retry-After"))));
    }
    JsonObject body;
    try {
      Buffer raw = response.body();
      body = raw == null ? null : new JsonObject(raw);
    } catch (DecodeException | ClassCastException e) {
      body = null;
    }
    if (body == null) {
      String what = "Slack answered " + method + " with HTTP " + status + " and a body that is not JSON ("
          + contentType(response) + ")";
      if (write && status < 300) {
        return SlackReply.ended(ToolResult.uncertain(what + "; the request may have been applied"));
      }
      return SlackReply.ended(write ? ToolResult.rejected(what) : ToolResult.rejected(what).withBranch("defect"));
    }
    if (body.getBoolean("ok", false)) {
      return SlackReply.ok(body);
    }
    String code = body.getValue("error") instanceof String s ? s : "unknown_error";
    String what = "Slack " + method + " failed: " + code;
    if (TRY_AGAIN.contains(code)) {
      return SlackReply.error(code, ToolResult.retryable(what,
          HttpFailures.retryAfterMillis(response.getHeader("Retry-After"))));
    }
    if (MAY_HAVE_APPLIED.contains(code)) {
      return SlackReply.error(code, write ? ToolResult.uncertain(what + "; Slack says part of it may have been applied")
          : ToolResult.retryable(what, 0));
    }
    return SlackReply.error(code, ToolResult.rejected(what));
  }

  private static String contentType(HttpResponse<Buffer> response) {
    String ct = response.getHeader("Content-Type");
    return ct == null ? "no content type" : ct;
  }

  private static long timeoutMillis(ToolInvocation invocation, Duration timeout) {
    long limit = timeout.toMillis();
    if (invocation != null && invocation.deadline() > 0) {
      limit = Math.min(limit, Math.max(1, invocation.remainingMillis()));
    }
    return limit;
  }
}
