package dev.ratchet.server.demo;

import dev.ratchet.connectors.Connection;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.Map;

/**
 * The order-support demo: the agent file {@code conf/agents/demo.yaml} uses the small shop service
 * started here, in-process on a fixed port ({@code agent.shopPort}) with its orders kept in the
 * data directory, through its OpenAPI document {@code conf/specs/shop.json}
 * and the connection {@code demo-shop} that points at it: {@code shop_look_up_order} (read),
 * {@code shop_cancel_order} (non-idempotent write, always asks) and {@code shop_refund_order}
 * (idempotent write with an Idempotency-Key, asks above 100).
 */
public final class DemoShop {

  public static final String AGENT = "order-support";
  /** The demo's agent file in the agents directory; {@code run --no-demo} leaves it out. */
  public static final String FILE = "demo.yaml";
  public static final String CONNECTION = "demo-shop";
  public static final String SLACK_CONNECTION = "support-slack";

  private DemoShop() {
  }

  /** Starts the shop service on a free loopback port. */
  public static Future<ShopService> start(Vertx vertx) {
    return new ShopService().start(vertx);
  }

  /** Starts {@code shop} on {@code port} of loopback (0: a free one), from its state file when it has one. */
  public static Future<ShopService> start(Vertx vertx, ShopService shop, int port) {
    return shop.start(vertx, port);
  }

  /** The connection the demo's agent file names, to the shop at {@code baseUrl}. */
  public static Connection connection(String baseUrl) {
    return Connection.of(CONNECTION, "openapi", new JsonObject().put("baseUrl", baseUrl).put("connectorId", "shop")
        .put("auth", "none"), Map.of());
  }
}
