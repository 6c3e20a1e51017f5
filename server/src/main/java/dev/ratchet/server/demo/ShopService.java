package dev.ratchet.server.demo;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The demo's small shop: an HTTP service on loopback with an OpenAPI document, reached by the
 * demo agent only through the OpenAPI connector. {@code GET /stats} counts what was done, so a
 * person (or a test) can see that a cancel happened once. With a state file the orders and counts
 * survive a restart, even a {@code kill -9}: each change is written (atomically, before the
 * answer) to the file, so a write the shop answered is never forgotten.
 */
public final class ShopService {

  /** The shop's port when none is configured: fixed, so its address stays the same across restarts. */
  public static final int DEFAULT_PORT = 8091;

  private final Map<String, JsonObject> orders = new ConcurrentHashMap<>();
  private final Map<String, JsonObject> refundsByKey = new ConcurrentHashMap<>();
  private final AtomicInteger cancelRequests = new AtomicInteger();
  private final AtomicInteger cancellations = new AtomicInteger();
  private final AtomicInteger refundRequests = new AtomicInteger();
  private HttpServer server;
  private final Path stateFile;
  private Vertx vertx;

  /** A shop that starts from the same three orders every time. */
  public ShopService() {
    this(null);
  }

  /** A shop that keeps its orders and counts in {@code stateFile} (null: in memory only). */
  public ShopService(Path stateFile) {
    this.stateFile = stateFile;
    orders.put("1001", order("1001", "Ada Lovelace", 42.50));
    orders.put("1002", order("1002", "Grace Hopper", 129.00));
    orders.put("1003", order("1003", "Alan Turing", 980.00));
  }

  private void restore() throws IOException {
    if (stateFile == null || !Files.exists(stateFile)) {
      return;
    }
    JsonObject state;
    try {
      state = new JsonObject(Files.readString(stateFile));
    } catch (DecodeException e) {
      throw new IOException("the demo shop's state file " + stateFile + " is not JSON; remove it to start afresh");
    }
    orders.clear();
    state.getJsonArray("orders", new JsonArray()).forEach(o -> orders.put(((JsonObject) o).getString("orderId"),
        (JsonObject) o));
    state.getJsonObject("refundsByKey", new JsonObject()).forEach(e -> refundsByKey.put(e.getKey(),
        (JsonObject) e.getValue()));
    cancelRequests.set(state.getInteger("cancelRequests", 0));
    cancellations.set(state.getInteger("cancellations", 0));
    refundRequests.set(state.getInteger("refundRequests", 0));
  }

  private JsonObject state() {
    JsonObject refunds = new JsonObject();
    refundsByKey.forEach((k, v) -> refunds.put(k, v.copy()));
    return stats().put("refundsByKey", refunds);
  }

  /** Writes the state (on a worker, in order), then answers. */
  private void saveThenAnswer(HttpServerRequest req, int status, JsonObject body) {
    if (stateFile == null) {
      json(req, status, body);
      return;
    }
    String text = state().encode();
    vertx.executeBlocking(() -> {
      Path tmp = stateFile.resolveSibling(stateFile.getFileName() + ".tmp");
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
          StandardOpenOption.TRUNCATE_EXISTING)) {
        ch.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
        ch.force(true);
      }
      Files.move(tmp, stateFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return null;
    }).onComplete(ar -> {
      if (ar.succeeded()) {
        json(req, status, body);
      } else {
        json(req, 500, new JsonObject().put("error", "the shop could not save its state: " + ar.cause().getMessage()));
      }
    });
  }

  private static JsonObject order(String id, String customer, double total) {
    return new JsonObject().put("orderId", id).put("customer", customer).put("total", total).put("status", "open")
        .put("refunded", 0.0);
  }

  /** Listens on a free loopback port. */
  public Future<ShopService> start(Vertx vertx) {
    return start(vertx, 0);
  }

  /** Restores the state file if there is one, then listens on {@code port} of loopback (0: a free one). */
  public Future<ShopService> start(Vertx vertx, int port) {
    this.vertx = vertx;
    try {
      restore();
    } catch (IOException e) {
      return Future.failedFuture(e);
    }
    return vertx.createHttpServer().requestHandler(this::handle).listen(port, "127.0.0.1")
        .recover(err -> Future.failedFuture(new IOException("the demo shop could not listen on 127.0.0.1:" + port
            + " (" + err.getMessage() + "); set agent.shopPort or RATCHET_SHOP_PORT to another port", err)))
        .map(s -> {
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
        saveThenAnswer(req, 409, new JsonObject().put("error", "order " + parts[2] + " is already "
            + order.getString("status")));
        return;
      }
      order.put("status", "cancelled");
      cancellations.incrementAndGet();
      saveThenAnswer(req, 200, order.copy());
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
      saveThenAnswer(req, 200, refundsByKey.get(key).copy().put("repeated", true));
      return;
    }
    double amount = body.getDouble("amount", 0.0);
    double left = order.getDouble("total") - order.getDouble("refunded");
    if (amount <= 0 || amount > left + 1e-9) {
      saveThenAnswer(req, 409, new JsonObject().put("error", "can refund at most " + left + " of order "
          + order.getString("orderId")));
      return;
    }
    order.put("refunded", order.getDouble("refunded") + amount);
    JsonObject refund = new JsonObject().put("refundId", "rf_" + (refundsByKey.size() + 1))
        .put("orderId", order.getString("orderId")).put("amount", amount);
    if (key != null) {
      refundsByKey.put(key, refund);
    }
    saveThenAnswer(req, 200, refund.copy());
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
