package dev.ratchet.connectors.testing;

import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.ratchet.runtime.testing.Await.await;

/**
 * A local orders service matching {@code openapi/orders.yaml}. Refunds honour the
 * {@code Idempotency-Key} header: a repeated key returns the first refund and adds no effect.
 * Faults can be queued like on {@link SlackTestServer}.
 */
public final class OrdersTestServer implements AutoCloseable {

  /** What the server does to the next request. */
  public enum Fault {
    /** 429 with Retry-After: 3, nothing applied. */
    RATE_LIMITED,
    /** Applies, then answers 503. */
    UNAVAILABLE_AFTER_APPLYING,
    /** Applies, then closes the connection without an answer. */
    DROP_AFTER_APPLYING,
    /** Applies, then answers 200 with HTML. */
    HTML_AFTER_APPLYING,
    /** Answers 400 with the request's Authorization header in the body, as careless services do. */
    ECHO_AUTHORIZATION
  }

  private static final Pattern ORDER = Pattern.compile("/v1/orders/([^/]+)(/refunds|/note|/hold)?");

  private final Vertx vertx;
  private final String bearer;
  private final Map<String, JsonObject> refundsByKey = new ConcurrentHashMap<>();
  private final AtomicInteger refundEffects = new AtomicInteger();
  private final AtomicInteger noteWrites = new AtomicInteger();
  private final Map<String, String> notes = new ConcurrentHashMap<>();
  private final ConcurrentLinkedQueue<Fault> faults = new ConcurrentLinkedQueue<>();
  private final List<MultiMap> headers = new CopyOnWriteArrayList<>();
  private final List<String> uris = new CopyOnWriteArrayList<>();
  private HttpServer server;

  /** @param bearer the token required as {@code Authorization: Bearer}, or null to accept any request */
  public OrdersTestServer(Vertx vertx, String bearer) {
    this.vertx = vertx;
    this.bearer = bearer;
  }

  public OrdersTestServer start() {
    // no keep-alive: a test that stops this server must see "connection refused", not a stale pooled connection
    server = await(vertx.createHttpServer().requestHandler(req -> {
      req.response().putHeader("Connection", "close");
      handle(req);
    }).listen(0, "127.0.0.1"));
    return this;
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + server.actualPort() + "/v1";
  }

  public void failNext(Fault fault) {
    faults.add(fault);
  }

  public int refundEffects() {
    return refundEffects.get();
  }

  public int noteWrites() {
    return noteWrites.get();
  }

  public int requests() {
    return uris.size();
  }

  public MultiMap lastHeaders() {
    return headers.get(headers.size() - 1);
  }

  public String lastUri() {
    return uris.get(uris.size() - 1);
  }

  private void handle(HttpServerRequest req) {
    headers.add(MultiMap.caseInsensitiveMultiMap().addAll(req.headers()));
    uris.add(req.uri());
    req.body().onSuccess(body -> {
      Fault fault = faults.poll();
      if (fault == Fault.RATE_LIMITED) {
        req.response().setStatusCode(429).putHeader("Retry-After", "3").end();
        return;
      }
      if (fault == Fault.ECHO_AUTHORIZATION) {
        json(req, 400, new JsonObject().put("error", "bad request").put("received",
            String.valueOf(req.getHeader("Authorization"))));
        return;
      }
      if (bearer != null && !("Bearer " + bearer).equals(req.getHeader("Authorization"))) {
        json(req, 401, new JsonObject().put("error", "unauthorized"));
        return;
      }
      int status;
      JsonObject answer;
      Matcher m = ORDER.matcher(req.path());
      if (req.path().equals("/v1/orders") && req.method().name().equals("GET")) {
        status = 200;
        answer = new JsonObject().put("orders", new JsonArray().add(order("1002")))
            .put("query", new JsonObject().put("status", req.getParam("status"))
                .put("tag", new JsonArray(req.params().getAll("tag"))).put("limit", req.getParam("limit")));
      } else if (m.matches() && m.group(2) == null && req.method().name().equals("GET")) {
        status = m.group(1).equals("1002") ? 200 : 404;
        answer = status == 200 ? order("1002") : new JsonObject().put("error", "no order " + m.group(1));
      } else if (m.matches() && "/refunds".equals(m.group(2)) && req.method().name().equals("POST")) {
        String key = req.getHeader("Idempotency-Key");
        JsonObject refund = body.length() == 0 ? null : body.toJsonObject();
        if (key == null) {
          status = 400;
          answer = new JsonObject().put("error", "Idempotency-Key header is required");
        } else if (refund == null || refund.getDouble("amount", 0.0) > 1000) {
          status = 422;
          answer = new JsonObject().put("error", "amount must be at most 1000");
        } else {
          status = 201;
          answer = refundsByKey.computeIfAbsent(key, k -> {
            refundEffects.incrementAndGet();
            return new JsonObject().put("id", "rf_" + refundEffects.get()).put("order", m.group(1))
                .put("amount", refund.getValue("amount"));
          });
        }
      } else if (m.matches() && "/note".equals(m.group(2)) && req.method().name().equals("PUT")) {
        noteWrites.incrementAndGet();
        notes.put(m.group(1), String.valueOf(body.toJsonObject().getValue("note")));
        status = 200;
        answer = order(m.group(1));
      } else if (m.matches() && "/hold".equals(m.group(2)) && req.method().name().equals("DELETE")) {
        status = 204;
        answer = null;
      } else {
        status = 404;
        answer = new JsonObject().put("error", "no route");
      }
      if (fault == Fault.UNAVAILABLE_AFTER_APPLYING) {
        req.response().setStatusCode(503).end();
      } else if (fault == Fault.DROP_AFTER_APPLYING) {
        req.connection().close();
      } else if (fault == Fault.HTML_AFTER_APPLYING) {
        req.response().putHeader("Content-Type", "text/html").end("<html>maintenance</html>");
      } else if (answer == null) {
        req.response().setStatusCode(status).end();
      } else {
        json(req, status, answer);
      }
    });
  }

  private JsonObject order(String id) {
    return new JsonObject().put("id", id).put("status", "open").put("note", notes.get(id));
  }

  private static void json(HttpServerRequest req, int status, JsonObject body) {
    req.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(body.encode());
  }

  @Override
  public void close() {
    if (server != null) {
      await(server.close());
    }
  }
}
