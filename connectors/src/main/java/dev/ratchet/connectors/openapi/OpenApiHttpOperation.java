package dev.ratchet.connectors.openapi;

import dev.ratchet.connectors.Connection;
import dev.ratchet.connectors.ConnectorManifest;
import dev.ratchet.connectors.ConnectorOperation;
import dev.ratchet.connectors.OperationDefinition;
import dev.ratchet.connectors.OperationKind;
import dev.ratchet.connectors.impl.HttpFailures;
import dev.ratchet.runtime.Redaction;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolNotSentException;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.RequestOptions;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Calls one OpenAPI operation over HTTP, its request built from the arguments as the document
 * says ({@link WireRequest}, {@link BodyWriter}); a request that cannot be built so, or whose
 * file cannot be read, is never sent. Writes carry the invocation's idempotency key in an
 * {@code Idempotency-Key} header. 2xx is {@code success}; 408 and 429 are retryable; other 4xx
 * {@code rejected}; 5xx, a lost connection or a timeout after sending are {@code uncertain} for
 * writes (and retryable for reads); a 2xx body that is not JSON is {@code uncertain} for a write
 * and a {@code defect} for a read.
 */
record OpenApiHttpOperation(Vertx vertx, HttpClient client, ConnectorManifest manifest, OpenApiOperationSpec spec,
                            Connection connection, OpenApiAuth auth, String baseUrl, List<String> fileUrlHosts)
    implements ConnectorOperation {

  static final String IDEMPOTENCY_HEADER = "Idempotency-Key";

  OpenApiHttpOperation {
    baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
  }

  @Override
  public OperationDefinition definition() {
    return spec.definition();
  }

  /** The attempt is journaled as started once the connection pool lends it a connection (J2). */
  @Override
  public boolean announcesSending() {
    return isWrite();
  }

  @Override
  public String connectionName() {
    return connection.name();
  }

  private boolean isWrite() {
    return spec.definition().kind() == OperationKind.MUTATION;
  }

  @Override
  public Future<ToolResult> execute(ToolInvocation invocation) {
    JsonObject args = invocation.arguments() == null ? new JsonObject() : invocation.arguments();
    String what = spec.method().toUpperCase(Locale.ROOT) + " " + spec.path();
    // the whole budget of the attempt: the request gets all of it once it has its connection
    long budget = timeoutMillis(invocation);
    WireRequest wire;
    try {
      wire = WireRequest.build(spec, args);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(notBuilt(what, e));
    }
    Future<BodyWriter.Encoded> body = spec.body() == null || args.getValue("body") == null ? Future.succeededFuture()
        : BodyWriter.write(spec.body(), args.getValue("body"), client, fileUrlHosts, budget);
    // credentials may be re-read from a file: keep that off the event loop
    Future<List<String>> secrets = vertx.executeBlocking(() -> {
      List<String> values = new ArrayList<>();
      for (String name : auth.credentialNames()) {
        values.add(connection.revealCredential(name));
      }
      return values;
    });
    return Future.all(body, secrets).transform(ready -> {
      if (ready.failed()) {
        return Future.failedFuture(ready.cause() instanceof IllegalArgumentException e ? notBuilt(what, e)
            : new ToolNotSentException(what + " was not sent (" + HttpFailures.describe(ready.cause()) + ")"));
      }
      return send(what, wire, body.result(), invocation, secrets.result(), budget);
    });
  }

  private static ToolNotSentException notBuilt(String what, IllegalArgumentException e) {
    return new ToolNotSentException(what + " could not be built as its document says: " + e.getMessage()
        + "; nothing was sent");
  }

  private Future<ToolResult> send(String what, WireRequest wire, BodyWriter.Encoded body, ToolInvocation invocation,
                                  List<String> secrets, long budget) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("Accept", "application/json")
        .add("User-Agent", "ratchet-connector-openapi").addAll(wire.headers());
    if (isWrite()) {
      headers.set(IDEMPOTENCY_HEADER, invocation.idempotencyKey().value());
    }
    if (invocation.traceparent() != null) {
      // the provider's own spans join the call's trace (docs/OBSERVABILITY.md)
      headers.set("traceparent", invocation.traceparent());
    }
    List<String> authQuery = new ArrayList<>();
    auth.apply(headers, authQuery, secrets);
    if (body != null) {
      headers.set("Content-Type", body.contentType());
    }
    // waiting for a pooled connection may take what is left of the attempt; the request itself,
    // once it has its connection, gets the attempt's whole budget (the runtime restarts its clock
    // when a write announces its sending)
    long waiting = Math.max(1, Math.min(budget, invocation.deadline() > 0 ? invocation.remainingMillis() : budget));
    RequestOptions options = new RequestOptions().setMethod(HttpMethod.valueOf(spec.method().toUpperCase(Locale.ROOT)))
        .setAbsoluteURI(wire.uri(baseUrl, authQuery)).setHeaders(headers).setConnectTimeout(waiting)
        .setIdleTimeout(budget).setFollowRedirects(false);
    Buffer payload = body == null ? null : body.bytes();
    // the request future completes once the pool lends a connection: until then nothing has left, and
    // the runtime journals the attempt as started only now (J2)
    return client.request(options).transform(connected -> {
      if (connected.failed()) {
        return Future.failedFuture(HttpFailures.asNotSent(what, connected.cause()));
      }
      HttpClientRequest request = connected.result();
      return invocation.sending().transform(go -> {
        if (go.failed()) {
          request.reset();
          return Future.failedFuture(go.cause() instanceof ToolNotSentException ? go.cause()
              : new ToolNotSentException(what + " was not sent (" + HttpFailures.describe(go.cause()) + ")"));
        }
        return Exchange.send(request, payload, r -> r.body().map(b -> new Reply(r.statusCode(),
            r.getHeader("Retry-After"), r.getHeader("Content-Type"), b.toString(StandardCharsets.UTF_8))))
            .transform(ar -> {
              if (ar.succeeded()) {
                return Future.succeededFuture(Redaction.scrub(answer(what, ar.result())));
              }
              if (HttpFailures.neverSent(ar.cause())) {
                return Future.failedFuture(HttpFailures.asNotSent(what, ar.cause()));
              }
              String lost = "connection lost during " + what + " (" + Redaction.scrub(HttpFailures.describe(ar.cause()))
                  + ")";
              return Future.succeededFuture(isWrite()
                  ? ToolResult.uncertain(lost + " after the request was sent; it may have been applied")
                  : ToolResult.retryable(lost, 0));
            });
      });
    });
  }

  /** What a response said, read whole. */
  private record Reply(int status, String retryAfter, String contentType, String body) {
  }

  private ToolResult answer(String what, Reply response) {
    int status = response.status();
    String body = response.body();
    if (status >= 200 && status < 300) {
      if (body == null || body.isBlank()) {
        return ToolResult.success(new JsonObject().put("status", status));
      }
      try {
        return ToolResult.success(Json.decodeValue(body));
      } catch (DecodeException e) {
        String msg = what + " answered HTTP " + status + " with a body that is not JSON ("
            + contentType(response) + ")";
        return isWrite() ? ToolResult.uncertain(msg + "; the request may have been applied")
            : ToolResult.rejected(msg).withBranch("defect");
      }
    }
    String msg = what + " answered HTTP " + status + (body == null || body.isBlank() ? ""
        : ": " + HttpFailures.excerpt(body, 500));
    if (status == 408 || status == 429) {
      return ToolResult.retryable(msg, HttpFailures.retryAfterMillis(response.retryAfter()));
    }
    if (status >= 400 && status < 500) {
      return ToolResult.rejected(msg);
    }
    if (status >= 500) {
      return isWrite() ? ToolResult.uncertain(msg + "; the request may have been applied")
          : ToolResult.retryable(msg, HttpFailures.retryAfterMillis(response.retryAfter()));
    }
    // 1xx or 3xx: redirects are not followed, because a write must not be sent to a second place
    return isWrite() ? ToolResult.uncertain(msg) : ToolResult.rejected(msg).withBranch("defect");
  }

  /** The attempt's time: what the runtime gave it, else the operation's own timeout. */
  private long timeoutMillis(ToolInvocation invocation) {
    return invocation.deadline() > 0 ? Math.max(1, invocation.remainingMillis())
        : spec.definition().timeout().toMillis();
  }

  private static String contentType(Reply response) {
    String ct = response.contentType();
    return ct == null ? "no content type" : ct;
  }

  @Override
  public String toString() {
    return manifest.connectorId() + "/" + connection.name() + "." + spec.operationId();
  }
}
