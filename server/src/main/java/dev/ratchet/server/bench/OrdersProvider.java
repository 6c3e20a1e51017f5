package dev.ratchet.server.bench;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local orders service for the benchmarks and the end-to-end tests that run {@code ratchet run}:
 * its OpenAPI document ({@code getOrder}, {@code cancelOrder}), the agent file that offers both
 * through the connection {@code orders-api}, and how many times each order was cancelled, which is
 * what "each write lands once" is checked against.
 */
public final class OrdersProvider {

  /** The OpenAPI document; more paths may follow it at the same indentation. */
  public static final String SPEC = """
      openapi: 3.0.3
      info: {title: Orders, version: "1"}
      paths:
        /orders/{orderId}:
          get:
            operationId: getOrder
            parameters: [{name: orderId, in: path, required: true, schema: {type: string}}]
            responses: {"200": {description: the order}}
        /orders/{orderId}/cancel:
          post:
            operationId: cancelOrder
            parameters: [{name: orderId, in: path, required: true, schema: {type: string}}]
            responses: {"200": {description: cancelled}}
      """;

  /** How long the service takes to answer for an order whose id starts with {@code slow}. */
  public static final long SLOW_MILLIS = 4_000;

  private final Map<String, AtomicInteger> cancels = new ConcurrentHashMap<>();
  private int port;
  private Vertx vertx;

  /** Serves on a free port of 127.0.0.1 until {@code vertx} closes. */
  public OrdersProvider start(Vertx vertx) {
    this.vertx = vertx;
    port = vertx.createHttpServer().requestHandler(this::handle).listen(0, "127.0.0.1").await().actualPort();
    return this;
  }

  /** How many cancel requests reached the service for {@code orderId} (a slow one counts as it arrives). */
  public int cancels(String orderId) {
    AtomicInteger n = cancels.get(orderId);
    return n == null ? 0 : n.get();
  }

  /** Orders cancelled at least once. */
  public int cancelledOrders() {
    return cancels.size();
  }

  /** Orders cancelled more than once. */
  public long cancelledTwice() {
    return cancels.values().stream().filter(n -> n.get() > 1).count();
  }

  /**
   * Writes the document as {@code orders.yaml} in {@code dir} (where {@code run} starts) and the
   * agent {@code orders} in {@code agents}, whose cancels ask a person when {@code cancelApproval}
   * is {@code always}.
   */
  public static void writeAgent(Path dir, Path agents, String cancelApproval) throws IOException {
    Files.writeString(dir.resolve("orders.yaml"), SPEC);
    Files.createDirectories(agents);
    Files.writeString(agents.resolve("orders.yaml"), """
        agent: orders
        tools:
          - openapi: orders.yaml
            connection: orders-api
            operations: [getOrder, cancelOrder]
            approval: { cancelOrder: %s }
        """.formatted(cancelApproval));
  }

  /** The {@code RATCHET_CONNECTION_*} variables of the connection {@code orders-api} to this service. */
  public Map<String, String> connection() {
    return Map.of("RATCHET_CONNECTION_ORDERS_API_CONNECTOR", "openapi",
        "RATCHET_CONNECTION_ORDERS_API_CONFIG_BASE_URL", "http://127.0.0.1:" + port,
        "RATCHET_CONNECTION_ORDERS_API_CONFIG_CONNECTOR_ID", "orders");
  }

  private void handle(HttpServerRequest req) {
    req.body().onSuccess(body -> {
      String orderId = req.path().split("/")[2];
      if (req.path().endsWith("/cancel")) {
        cancels.computeIfAbsent(orderId, k -> new AtomicInteger()).incrementAndGet();
      }
      // a slow order keeps its request in flight long enough to stop a member while it is sent
      long delay = orderId.startsWith("slow") ? SLOW_MILLIS : 0;
      Runnable answer = () -> req.response().putHeader("Content-Type", "application/json").end("{\"ok\":true}");
      if (delay > 0) {
        vertx.setTimer(delay, t -> answer.run());
      } else {
        answer.run();
      }
    });
  }
}
