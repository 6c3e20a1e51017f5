package dev.ratchet.verticles.crash;

import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.Turn;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.StepEvents;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.function.Function;

/**
 * The protocol between a crash test and its child runtime: commands on stdin and events on stdout,
 * one JSON object a line, so that the test can kill the child between any two lines.
 */
final class NodeProtocol {

  private NodeProtocol() {
  }

  static synchronized void print(JsonObject json) {
    System.out.println(json.encode());
    System.out.flush();
  }

  /** Prints each turn's results as the runtime publishes its completion, and each session it finds fenced. */
  static void printCompletedTurnsAndFencing(Vertx vertx) {
    // an interceptor is a listener Ratchet cannot count (docs/EVENT-BUS.md)
    StepEvents.publishAll(vertx);
    vertx.eventBus().addOutboundInterceptor(ctx -> {
      Object body = ctx.message().body();
      if (ctx.message().address().endsWith(".events") && body instanceof JsonObject) {
        JsonObject event = (JsonObject) body;
        if ("turn.completed".equals(event.getString("type"))) {
          print(new JsonObject().put("event", "result").put("results", event.getJsonObject("data")));
        } else if ("session.fenced".equals(event.getString("type"))) {
          print(new JsonObject().put("event", "fenced").put("session", event.getString("sessionId")));
        }
      }
      ctx.next();
    });
  }

  /**
   * Answers {@code submit} and {@code approve} commands until stdin closes; a submitted turn goes to
   * the agent that {@code agentOf} names for its command.
   */
  static void serve(RatchetNode ratchet, Function<JsonObject, String> agentOf) throws IOException {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    String line;
    while ((line = in.readLine()) != null) {
      JsonObject cmd = new JsonObject(line);
      switch (cmd.getString("cmd")) {
        case "submit":
          ratchet.submit(agentOf.apply(cmd), cmd.getString("session"), Turn.fromJson(cmd.getJsonObject("turn")))
              .onSuccess(r -> print(new JsonObject().put("event", "result").put("results", r.toJson())))
              .onFailure(err -> print(new JsonObject().put("event", "error").put("message", err.getMessage())));
          break;
        case "approve":
          ratchet.decide(new ApprovalDecision(cmd.getString("session"), new CallId(cmd.getString("callId")),
                  cmd.getString("hash"), true, "tester", "looks right"))
              .onComplete(ar -> print(new JsonObject().put("event", "decided")
                  .put("answer", ar.succeeded() ? ar.result().name() : ar.cause().getMessage())));
          break;
        default:
          print(new JsonObject().put("event", "error").put("message", "unknown command"));
      }
    }
  }
}
