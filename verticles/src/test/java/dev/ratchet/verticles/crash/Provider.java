package dev.ratchet.verticles.crash;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.ratchet.runtime.testing.Await.await;

/**
 * A provider on loopback that counts effects per idempotency key. It can hold requests without
 * answering, either after applying them (the effect happened, the answer was lost) or before.
 */
final class Provider implements AutoCloseable {

  enum Hold { NONE, AFTER_APPLY, BEFORE_APPLY }

  final Map<String, AtomicInteger> applied = new ConcurrentHashMap<>();
  final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
  final Map<String, AtomicInteger> byTool = new ConcurrentHashMap<>();
  final Map<String, AtomicInteger> lookups = new ConcurrentHashMap<>();
  volatile Hold hold = Hold.NONE;
  volatile String holdTool;
  private final java.util.Queue<Runnable> held = new java.util.concurrent.ConcurrentLinkedQueue<>();
  private final Vertx vertx = Vertx.vertx();
  private final HttpServer server;

  Provider() {
    server = await(vertx.createHttpServer().requestHandler(this::handle).listen(0, "127.0.0.1"));
  }

  String url() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  int applied(String tool) {
    return byTool.getOrDefault(tool, new AtomicInteger()).get();
  }

  int requests(String key) {
    return requests.getOrDefault(key, new AtomicInteger()).get();
  }

  private void handle(HttpServerRequest req) {
    String key = req.getParam("key");
    String tool = req.getParam("tool");
    if (req.path().equals("/lookup")) {
      lookups.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
      if (applied.containsKey(key)) {
        req.response().putHeader("content-type", "application/json")
            .end(new JsonObject().put("found", true).put("key", key).encode());
      } else {
        req.response().setStatusCode(404).end();
      }
      return;
    }
    if (req.path().equals("/read")) {
      byTool.computeIfAbsent(tool, k -> new AtomicInteger()).incrementAndGet();
      req.response().putHeader("content-type", "application/json").end(new JsonObject().put("order", "ok").encode());
      return;
    }
    requests.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
    boolean holding = hold != Hold.NONE && (holdTool == null || holdTool.equals(tool));
    if (holding && hold == Hold.BEFORE_APPLY) {
      held.add(() -> {
        apply(key, tool);
        answer(req, key, tool);
      });
      return;
    }
    apply(key, tool);
    if (holding) {
      held.add(() -> answer(req, key, tool));
      return;
    }
    answer(req, key, tool);
  }

  /** Answers every held request, applying first those held before their effect. */
  void release() {
    vertx.runOnContext(v -> {
      Runnable r;
      while ((r = held.poll()) != null) {
        r.run();
      }
    });
  }

  private void apply(String key, String tool) {
    // an idempotency key applies its effect at most once, as a provider that honours keys would
    if (applied.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet() == 1) {
      byTool.computeIfAbsent(tool, k -> new AtomicInteger()).incrementAndGet();
    }
  }

  private static void answer(HttpServerRequest req, String key, String tool) {
    req.response().putHeader("content-type", "application/json")
        .end(new JsonObject().put("applied", tool).put("key", key).encode());
  }

  @Override
  public void close() {
    await(vertx.close());
  }
}
