package dev.ratchet.turns.testing;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.ratchet.runtime.testing.Await.await;

/**
 * The shop's back end on loopback: answers order look-ups and applies refunds and e-mails, counting
 * every effect per tool, so that a test sees whether a write reached it once, twice or never.
 */
public final class ShopProvider implements AutoCloseable {

  private final Map<String, AtomicInteger> effects = new ConcurrentHashMap<>();
  private final List<JsonObject> writes = new CopyOnWriteArrayList<>();
  private final Vertx vertx = Vertx.vertx();
  private final HttpServer server;

  public ShopProvider() {
    server = await(vertx.createHttpServer().requestHandler(this::handle).listen(0, "127.0.0.1"));
  }

  public String url() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  /** How many times a write of this tool took effect. */
  public int effects(String tool) {
    return effects.getOrDefault(tool, new AtomicInteger()).get();
  }

  /** How many times a write of this tool for this order took effect. */
  public int effects(String tool, String orderId) {
    return (int) writes.stream().filter(w -> tool.equals(w.getString("tool")) && orderId.equals(w.getString("orderId")))
        .count();
  }

  /** The bodies of the writes, in the order they arrived, each with its {@code tool}. */
  public List<JsonObject> writes() {
    return List.copyOf(writes);
  }

  private void handle(HttpServerRequest req) {
    req.body().onSuccess(body -> {
      String tool = req.getParam("tool");
      JsonObject args = body.length() == 0 ? new JsonObject() : body.toJsonObject();
      JsonObject answer;
      if ("look_up_order".equals(tool)) {
        answer = new JsonObject().put("orderId", args.getString("orderId")).put("status", "delivered")
            .put("totalCents", 12900);
      } else {
        effects.computeIfAbsent(tool, k -> new AtomicInteger()).incrementAndGet();
        writes.add(args.copy().put("tool", tool));
        answer = new JsonObject().put("done", tool).put("orderId", args.getString("orderId"));
      }
      req.response().putHeader("content-type", "application/json").end(answer.encode());
    });
  }

  @Override
  public void close() {
    await(vertx.close());
  }
}
