package dev.ratchet.runtime.testing;

import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The order tools of the agent-loop tests, each counting its runs: {@code look_up_order}, a read
 * that finds any order open, and writes on an order that ask a person first.
 */
public final class OrderTools {

  /** The arguments every order tool takes: an {@code orderId}. */
  public static final JsonObject ORDER_ID = new JsonObject("""
      {"type":"object","properties":{"orderId":{"type":"string"}},"required":["orderId"]}""");

  private OrderTools() {
  }

  /** A source "shop" offering {@code look_up_order}, which counts its runs in {@code lookups}. */
  public static FunctionToolSource lookUpOrder(AtomicInteger lookups) {
    return FunctionToolSource.create("shop")
        .read("look_up_order", "Look up an order", ORDER_ID, inv -> {
          lookups.incrementAndGet();
          return Future.succeededFuture(new JsonObject().put("orderId", inv.arguments().getString("orderId"))
              .put("status", "open"));
        });
  }

  /** A non-idempotent write on an order that always asks first, answers {@code result} and counts its runs. */
  public static FunctionToolSource.Builder approvedWrite(String name, String description, AtomicInteger runs,
                                                        JsonObject result) {
    return FunctionToolSource.define(name, EffectClass.NON_IDEMPOTENT_WRITE).description(description)
        .schema(ORDER_ID).approval(ApprovalRule.always())
        .invoke(inv -> {
          runs.incrementAndGet();
          return Future.succeededFuture(ToolResult.success(result.copy()));
        });
  }
}
