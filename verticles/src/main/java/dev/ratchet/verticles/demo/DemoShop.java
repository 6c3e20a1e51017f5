package dev.ratchet.verticles.demo;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The order-support demo agent with an in-process shop: one read, one non-idempotent write that
 * always asks for approval, and one idempotent write that asks above an amount.
 */
public final class DemoShop {

  public static final String AGENT = "order-support";

  private final Map<String, JsonObject> orders = new ConcurrentHashMap<>();
  private final Map<String, JsonObject> refundsByKey = new ConcurrentHashMap<>();

  public DemoShop() {
    orders.put("1001", order("1001", "Ada Lovelace", 42.50));
    orders.put("1002", order("1002", "Grace Hopper", 129.00));
    orders.put("1003", order("1003", "Alan Turing", 980.00));
  }

  private static JsonObject order(String id, String customer, double total) {
    return new JsonObject().put("orderId", id).put("customer", customer).put("total", total).put("status", "open");
  }

  public AgentDefinition agent() {
    JsonObject orderId = new JsonObject("""
        {"type":"object","properties":{"orderId":{"type":"string","description":"the order number"}},
         "required":["orderId"],"additionalProperties":false}""");
    JsonObject refund = new JsonObject("""
        {"type":"object","properties":{"orderId":{"type":"string"},"amount":{"type":"number","exclusiveMinimum":0}},
         "required":["orderId","amount"],"additionalProperties":false}""");
    FunctionToolSource tools = FunctionToolSource.create("demo-shop")
        .read("look_up_order", "Look up an order by number", orderId, inv -> {
          JsonObject o = orders.get(inv.arguments().getString("orderId"));
          return o == null ? Future.failedFuture(new IllegalArgumentException("no such order"))
              : Future.succeededFuture(o.copy());
        })
        .tool(FunctionToolSource.define("cancel_order", EffectClass.NON_IDEMPOTENT_WRITE)
            .description("Cancel an open order").schema(orderId).approval(ApprovalRule.always())
            .invoke(inv -> {
              JsonObject o = orders.get(inv.arguments().getString("orderId"));
              if (o == null) {
                return Future.succeededFuture(ToolResult.rejected("no order " + inv.arguments().getString("orderId")));
              }
              if (!"open".equals(o.getString("status"))) {
                return Future.succeededFuture(ToolResult.rejected("order is already " + o.getString("status")));
              }
              o.put("status", "cancelled");
              return Future.succeededFuture(ToolResult.success(o.copy()));
            }))
        .tool(FunctionToolSource.define("refund_order", EffectClass.IDEMPOTENT_WRITE)
            .description("Refund part or all of an order; safe to retry")
            .schema(refund)
            .approval(ApprovalRule.when(args -> args.getDouble("amount") > 100))
            .handler(inv -> {
              JsonObject done = refundsByKey.computeIfAbsent(inv.idempotencyKey().value(), k -> new JsonObject()
                  .put("orderId", inv.arguments().getString("orderId"))
                  .put("refunded", inv.arguments().getDouble("amount")).put("refundId", "rf_" + k.substring(3, 11)));
              return Future.succeededFuture(done.copy());
            }));
    return AgentDefinition.builder(AGENT).toolSource(tools).build();
  }
}
