package dev.ratchet.verticles.faults;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnRequest;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.verticles.RatchetNode;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-process agent whose tools count their effects (per call id for the non-idempotent write,
 * per idempotency key for the idempotent one), and a load of turns submitted to it.
 */
final class FaultWorkload {

  final Map<String, AtomicInteger> charges = new ConcurrentHashMap<>();
  final Map<String, AtomicInteger> upserts = new ConcurrentHashMap<>();
  final AtomicInteger reads = new AtomicInteger();
  /** Turns whose submission was answered (journaled): they must complete. */
  final Map<String, Future<TurnResult>> acknowledged = new ConcurrentHashMap<>();
  /** Turns whose submission failed, with the error code; a caller would submit them again. */
  final Map<String, Throwable> refused = new ConcurrentHashMap<>();
  final AtomicInteger refusals = new AtomicInteger();

  AgentDefinition agent(Vertx vertx) {
    FunctionToolSource tools = FunctionToolSource.create("faults")
        .tool(FunctionToolSource.define("read", EffectClass.READ).handler(inv -> later(vertx, () -> {
          reads.incrementAndGet();
          return new JsonObject().put("ok", true);
        })))
        .tool(FunctionToolSource.define("upsert", EffectClass.IDEMPOTENT_WRITE).handler(inv -> later(vertx, () -> {
          upserts.computeIfAbsent(inv.idempotencyKey().value(), k -> new AtomicInteger()).incrementAndGet();
          return new JsonObject().put("ok", true);
        })))
        .tool(FunctionToolSource.define("charge", EffectClass.NON_IDEMPOTENT_WRITE).handler(inv -> later(vertx, () -> {
          charges.computeIfAbsent(inv.callId().value(), k -> new AtomicInteger()).incrementAndGet();
          return new JsonObject().put("ok", true);
        })));
    return AgentDefinition.builder("faults").toolSource(tools).build();
  }

  private static Future<Object> later(Vertx vertx, java.util.function.Supplier<Object> effect) {
    Promise<Object> p = Promise.promise();
    vertx.setTimer(2, t -> p.complete(effect.get()));
    return p.future();
  }

  static Turn turn(String turnId) {
    return new Turn(turnId, List.of(new ToolCall("read", new JsonObject().put("n", 1)),
        new ToolCall("upsert", new JsonObject().put("item", turnId)),
        new ToolCall("charge", new JsonObject().put("amount", 5))));
  }

  /** Submits one turn, remembering whether it was acknowledged or refused. */
  void submit(RatchetNode ratchet, String session, String turnId) {
    ratchet.accept(TurnRequest.of("faults", session, turn(turnId))).onComplete(ar -> {
      if (ar.succeeded()) {
        acknowledged.put(session + "/" + turnId, ar.result().result());
        refused.remove(session + "/" + turnId);
      } else {
        refusals.incrementAndGet();
        refused.put(session + "/" + turnId, ar.cause());
      }
    });
  }

  int duplicates() {
    int d = 0;
    for (AtomicInteger n : charges.values()) {
      d += Math.max(0, n.get() - 1);
    }
    return d;
  }
}
