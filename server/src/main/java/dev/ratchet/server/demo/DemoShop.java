package dev.ratchet.server.demo;

import dev.ratchet.connectors.Connection;

import dev.ratchet.connectors.ConnectorToolSource;
import dev.ratchet.connectors.Connections;
import dev.ratchet.connectors.OpenApiConnector;
import dev.ratchet.connectors.SlackConnector;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ToolSource;
import dev.ratchet.runtime.agent.ChatModel;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

import static dev.ratchet.connectors.ConnectorTool.connectorTool;

/**
 * The order-support demo agent: a small shop service started in-process, used
 * through the OpenAPI connector as {@code look_up_order} (read), {@code cancel_order}
 * (non-idempotent write, always asks for approval) and {@code refund_order} (idempotent write with
 * an Idempotency-Key, asks for approval above 100); a Slack thread reply when a Slack connection
 * named {@code support-slack} is configured (asks before every post); and a model that runs the loop.
 */
public final class DemoShop {

  public static final String AGENT = "order-support";
  public static final String SLACK_CONNECTION = "support-slack";
  public static final double REFUND_APPROVAL_ABOVE = 100;

  static final String PROMPT = "You are the order-support agent of a small shop. Use the tools to look up, cancel"
      + " and refund orders (order numbers have four digits, for example 1002). Cancelling an order and refunds"
      + " over " + (int) REFUND_APPROVAL_ABOVE + " wait for a person's approval in the dashboard; the tool result"
      + " tells you how it was decided. Answer briefly, saying what was done.";

  private final ShopService shop;
  private final AgentDefinition agent;
  private final boolean slack;

  private DemoShop(ShopService shop, AgentDefinition agent, boolean slack) {
    this.shop = shop;
    this.agent = agent;
    this.slack = slack;
  }

  /** Starts the shop service and builds the agent with the given model. Reads files: call it at start-up. */
  public static Future<DemoShop> start(Vertx vertx, ChatModel model, Connections connections, int maxTurns) {
    return start(vertx, model, connections, maxTurns, new ShopService(), 0);
  }

  /** As {@link #start(Vertx, ChatModel, Connections, int)} with this shop, listening on {@code port} (0: a free one). */
  public static Future<DemoShop> start(Vertx vertx, ChatModel model, Connections connections, int maxTurns,
                                       ShopService shop, int port) {
    return shop.start(vertx, port).map(s -> {
      Connection connection = Connection.of("demo-shop", "openapi",
          new JsonObject().put("baseUrl", shop.baseUrl()).put("connectorId", "shop").put("auth", "none"), Map.of());
      OpenApiConnector api = OpenApiConnector.parse(vertx, "shop", document(), "shop-openapi.json", connection);
      ToolSource shopTools = RenamedTool.renamed(ConnectorToolSource.of(
          connectorTool(api.operation("lookUpOrder")),
          connectorTool(api.operation("cancelOrder")).requireApproval(true),
          connectorTool(api.operation("refundOrder")).requireApprovalWhen(args ->
              args.getJsonObject("body").getDouble("amount") > REFUND_APPROVAL_ABOVE)).named("demo-shop"),
          Map.of("shop_look_up_order", "look_up_order", "shop_cancel_order", "cancel_order",
              "shop_refund_order", "refund_order"));
      AgentDefinition.Builder builder = AgentDefinition.builder(AGENT).toolSource(shopTools).model(model)
          .maxTurns(maxTurns).systemPrompt(PROMPT);
      Optional<Connection> slackConnection = connections.find(SLACK_CONNECTION);
      if (slackConnection.isPresent()) {
        SlackConnector slackConnector = SlackConnector.connect(vertx, slackConnection.get());
        builder.toolSource(ConnectorToolSource.of(connectorTool(slackConnector.postThreadReply()).requireApproval(true))
            .named("slack"));
      }
      return new DemoShop(shop, builder.build(), slackConnection.isPresent());
    });
  }

  public AgentDefinition agent() {
    return agent;
  }

  public ShopService shop() {
    return shop;
  }

  public boolean hasSlack() {
    return slack;
  }

  private static String document() {
    try (InputStream in = DemoShop.class.getResourceAsStream("shop-openapi.json")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException | NullPointerException e) {
      throw new IllegalStateException("the demo shop's OpenAPI document is missing from the jar", e);
    }
  }
}
