package dev.ratchet.server.demo;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The demo's small shop: an HTTP service on loopback with an OpenAPI document, reached by the
 * demo agent only through the OpenAPI connector. {@code GET /stats} counts what was done, so a
 * person (or a test) can see that a cancel happened once.
 */
public final class ShopService {

  private final Map<String, JsonObject> orders = new ConcurrentHashMap<>();
  private final Map<String, JsonObject> refundsByKey = new ConcurrentHashMap<>();
  private final AtomicInteger cancelRequests = new AtomicInteger();
  private final AtomicInteger cancellations = new AtomicInteger();
  private final AtomicInteger refundRequests = new AtomicInteger();
  private HttpServer server;

  public ShopService() {
    orders.put("1001", order("1001", "Ada Lovelace", 42.50));
    orders.put("1002", order("1002", "Grace Hopper", 129.00));
    orders.put("1003", order("1003", "Alan Turing", 980.00));
  }

  private static JsonObject order(String id, String customer, double total) {
    return new JsonObject().put("orderId", id).put("customer", customer).put("total", total).put("status", "open")
        .put("refunded", 0.0);
  }

  /** Listens on a free loopback port. */
  public Future<ShopService> start(Vertx vertx) {
    return vertx.createHttpServer().requestHandler(this::handle).listen(0, "127.0.0.1").map(s -> {
      server = s;
      return this;
    });
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  public Future<Void> close() {
    return server == null ? Future.succeededFuture() : server.close();
  }

  private synchronized void handle(HttpServerRequest req) {
    String[] parts = req.path().split("/");
    if (req.path().equals("/stats")) {
      json(req, 200, stats());
      return;
    }
    if (parts.length < 3 || !parts[1].equals("orders")) {
      json(req, 404, new JsonObject().put("error", "not found"));
      return;
    }
    JsonObject order = orders.get(parts[2]);
    if (order == null) {
      json(req, 404, new JsonObject().put("error", "no order " + parts[2]));
      return;
    }
    if (parts.length == 3 && req.method().name().equals("GET")) {
      json(req, 200, order.copy());
    } else if (parts.length == 4 && parts[3].equals("cancel") && req.method().name().equals("POST")) {
      cancelRequests.incrementAndGet();
      if (!"open".equals(order.getString("status"))) {
        json(req, 409, new JsonObject().put("error", "order " + parts[2] + " is already " + order.getString("status")));
        return;
      }
      order.put("status", "cancelled");
      cancellations.incrementAndGet();
      json(req, 200, order.copy());
    } else if (parts.length == 4 && parts[3].equals("refunds") && req.method().name().equals("POST")) {
      String key = req.getHeader("Idempotency-Key");
      req.body().onSuccess(body -> refund(req, order, key, body.length() == 0 ? new JsonObject() : body.toJsonObject()));
    } else {
      json(req, 405, new JsonObject().put("error", "method not allowed"));
    }
  }

  private synchronized void refund(HttpServerRequest req, JsonObject order, String key, JsonObject body) {
    refundRequests.incrementAndGet();
    if (key != null && refundsByKey.containsKey(key)) {
      json(req, 200, refundsByKey.get(key).copy().put("repeated", true));
      return;
    }
    double amount = body.getDouble("amount", 0.0);
    double left = order.getDouble("total") - order.getDouble("refunded");
    if (amount <= 0 || amount > left + 1e-9) {
      json(req, 409, new JsonObject().put("error", "can refund at most " + left + " of order " + order.getString("orderId")));
      return;
    }
    order.put("refunded", order.getDouble("refunded") + amount);
    JsonObject refund = new JsonObject().put("refundId", "rf_" + (refundsByKey.size() + 1))
        .put("orderId", order.getString("orderId")).put("amount", amount);
    if (key != null) {
      refundsByKey.put(key, refund);
    }
    json(req, 200, refund.copy());
  }

  public synchronized JsonObject stats() {
    JsonArray list = new JsonArray();
    orders.values().stream().sorted((a, b) -> a.getString("orderId").compareTo(b.getString("orderId")))
        .forEach(o -> list.add(o.copy()));
    return new JsonObject().put("cancelRequests", cancelRequests.get()).put("cancellations", cancellations.get())
        .put("refundRequests", refundRequests.get()).put("refunds", refundsByKey.size()).put("orders", list);
  }

  private static void json(HttpServerRequest req, int status, JsonObject body) {
    req.response().setStatusCode(status).putHeader("content-type", "application/json").end(body.encode());
  }
}
