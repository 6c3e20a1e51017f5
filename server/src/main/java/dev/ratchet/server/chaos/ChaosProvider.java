package dev.ratchet.server.chaos;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;

import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The provider the chaos workload talks to, on loopback: it counts what was actually sent. A
 * non-idempotent write applies its effect on every request (so a resend would show as a second
 * effect of the same call id); an idempotent write applies once per idempotency key, as a provider
 * that honours keys does. Each request waits a few random milliseconds before and after applying,
 * so kills land both before and after an effect.
 */
public final class ChaosProvider implements AutoCloseable {

  /** Effects of non-idempotent writes, per call id. */
  final Map<String, AtomicInteger> nonIdempotentEffects = new ConcurrentHashMap<>();
  /** Requests of idempotent writes, per idempotency key (resends with the same key are allowed). */
  final Map<String, AtomicInteger> idempotentRequests = new ConcurrentHashMap<>();
  /** Effects of idempotent writes, per idempotency key. */
  final Map<String, AtomicInteger> idempotentEffects = new ConcurrentHashMap<>();
  /** Idempotency keys seen per call id of an idempotent write. */
  final Map<String, Set<String>> keysByCall = new ConcurrentHashMap<>();
  final AtomicInteger reads = new AtomicInteger();
  final AtomicInteger lookups = new AtomicInteger();

  private final Vertx vertx = Vertx.vertx();
  private final HttpServer server;
  private final Random random = new Random();

  public ChaosProvider() {
    server = vertx.createHttpServer().requestHandler(this::handle).listen(0, "127.0.0.1").await();
  }

  public String url() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  static int count(Map<String, AtomicInteger> map, String key) {
    AtomicInteger n = map.get(key);
    return n == null ? 0 : n.get();
  }

  private long jitter() {
    synchronized (random) {
      return 1 + random.nextInt(25);
    }
  }

  private void handle(HttpServerRequest req) {
    String key = req.getParam("key");
    String call = req.getParam("call");
    String kind = req.getParam("kind");
    boolean fail = "true".equals(req.getParam("fail"));
    switch (req.path()) {
      case "/read":
        reads.incrementAndGet();
        vertx.setTimer(jitter(), t -> json(req, 200, new JsonObject().put("item", key)));
        return;
      case "/lookup":
        lookups.incrementAndGet();
        if (count(idempotentEffects, key) > 0) {
          json(req, 200, new JsonObject().put("found", true).put("key", key));
        } else {
          req.response().setStatusCode(404).end();
        }
        return;
      case "/effect":
        break;
      default:
        req.response().setStatusCode(404).end();
        return;
    }
    boolean idempotent = "idempotent".equals(kind);
    if (idempotent) {
      idempotentRequests.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
      keysByCall.computeIfAbsent(call, c -> ConcurrentHashMap.newKeySet()).add(key);
    }
    vertx.setTimer(jitter(), t -> {
      if (fail) {
        // refused before any effect: the call ends failed and the later writes of its turn are skipped
        json(req, 422, new JsonObject().put("error", "refused"));
        return;
      }
      if (idempotent) {
        idempotentEffects.computeIfAbsent(key, k -> new AtomicInteger()).compareAndSet(0, 1);
      } else {
        nonIdempotentEffects.computeIfAbsent(call, c -> new AtomicInteger()).incrementAndGet();
      }
      vertx.setTimer(jitter(), t2 -> json(req, 200, new JsonObject().put("applied", call).put("key", key)));
    });
  }

  private static void json(HttpServerRequest req, int status, JsonObject body) {
    req.response().setStatusCode(status).putHeader("content-type", "application/json").end(body.encode());
  }

  @Override
  public void close() {
    vertx.close().await();
  }
}
