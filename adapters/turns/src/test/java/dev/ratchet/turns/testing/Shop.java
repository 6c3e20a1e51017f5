package dev.ratchet.turns.testing;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;

/**
 * The agent every adapter test drives: {@code look_up_order} (a read), {@code refund_order} (a
 * non-idempotent write that asks a person above 100.00), {@code email_customer} (a non-idempotent
 * write that always asks a person), all served by a {@link ShopProvider}.
 */
public final class Shop {

  public static final String AGENT = "shop";

  public static final JsonObject ORDER_SCHEMA = new JsonObject("""
      {"type":"object","properties":{"orderId":{"type":"string","description":"the order number"}},
       "required":["orderId"],"additionalProperties":false}""");
  public static final JsonObject REFUND_SCHEMA = new JsonObject("""
      {"type":"object","properties":{"orderId":{"type":"string"},"amountCents":{"type":"integer","minimum":1}},
       "required":["orderId","amountCents"],"additionalProperties":false}""");
  public static final JsonObject EMAIL_SCHEMA = new JsonObject("""
      {"type":"object","properties":{"orderId":{"type":"string"},"text":{"type":"string"}},
       "required":["orderId","text"],"additionalProperties":false}""");

  private Shop() {
  }

  public static AgentDefinition agent(Vertx vertx, String providerUrl) {
    WebClient http = WebClient.create(vertx);
    FunctionToolSource tools = FunctionToolSource.create("shop")
        .read("look_up_order", "Look up an order", ORDER_SCHEMA, inv -> call(http, providerUrl, "look_up_order", inv)
            .map(r -> r.value()))
        .tool(FunctionToolSource.define("refund_order", EffectClass.NON_IDEMPOTENT_WRITE)
            .description("Refund part or all of an order").schema(REFUND_SCHEMA)
            .approval(ApprovalRule.when(args -> args.getLong("amountCents", 0L) > 10000))
            .invoke(inv -> call(http, providerUrl, "refund_order", inv)))
        .tool(FunctionToolSource.define("email_customer", EffectClass.NON_IDEMPOTENT_WRITE)
            .description("E-mail the customer of an order").schema(EMAIL_SCHEMA)
            .approval(ApprovalRule.always())
            .invoke(inv -> call(http, providerUrl, "email_customer", inv)));
    return AgentDefinition.builder(AGENT).toolSource(tools).build();
  }

  private static Future<ToolResult> call(WebClient http, String providerUrl, String tool, ToolInvocation inv) {
    return http.postAbs(providerUrl + "/shop").addQueryParam("tool", tool).sendJsonObject(inv.arguments())
        .map(r -> r.statusCode() == 200 ? ToolResult.success(r.bodyAsJsonObject())
            : ToolResult.rejected("the shop answered " + r.statusCode()));
  }
}
