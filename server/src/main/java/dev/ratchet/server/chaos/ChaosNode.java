package dev.ratchet.server.chaos;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolResult;
import dev.ratchet.server.cluster.ClusterSettings;
import dev.ratchet.server.impl.TransportChoice;
import dev.ratchet.verticles.Addresses;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import dev.ratchet.verticles.StepEvents;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The runtime under test in the chaos run, in its own JVM: the "chaos" agent whose tools call the
 * {@link ChaosProvider} over HTTP. Commands arrive on stdin and go through the event-bus API, one
 * JSON object a line; what happens comes back on stdout, one JSON object a line.
 * Arguments: redis url, key prefix, provider base URL; clustered, also this member's cluster port
 * and every member's host:port, comma-separated (the cluster is named after the key prefix).
 */
public final class ChaosNode {

  static final String AGENT = "chaos";

  public static void main(String[] args) throws Exception {
    String redisUrl = args[0];
    String prefix = args[1];
    String provider = args[2];
    // the transport ratchet run uses by default, so that the crashes exercise what ships
    TransportChoice transport = TransportChoice.of(TransportChoice.NATIVE);
    Vertx vertx = args.length < 5 ? transport.vertx()
        : new ClusterSettings(true, prefix, "127.0.0.1", Integer.parseInt(args[3]), List.of(args[4].split(",")),
            1_000, 3_000).vertx(transport.transport()).await();
    WebClient http = WebClient.create(vertx);
    // every completed turn is published with its results once they are journaled (J7)
    StepEvents.publishAll(vertx);
    vertx.eventBus().addOutboundInterceptor(ctx -> {
      Object body = ctx.message().body();
      if (ctx.message().address().endsWith(".events") && body instanceof JsonObject) {
        String type = ((JsonObject) body).getString("type");
        if (EventType.TURN_COMPLETED.wireName().equals(type)) {
          print(new JsonObject().put("event", "result").put("results", ((JsonObject) body).getJsonObject("data")));
        } else if (EventType.SESSION_FENCED.wireName().equals(type)) {
          print(new JsonObject().put("event", "fenced").put("session", ((JsonObject) body).getString("sessionId")));
        }
      }
      ctx.next();
    });
    RatchetNode ratchet = RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl(redisUrl).keyPrefix(prefix)
        .nodeId("chaos-" + ProcessHandle.current().pid())).await();
    long recovering = System.currentTimeMillis();
    // registering the agent resumes every session it has in flight
    ratchet.register(agent(http, provider)).await();
    print(new JsonObject().put("event", "ready").put("recoveryMs", System.currentTimeMillis() - recovering)
        .put("node", ratchet.cluster().node()));

    DeliveryOptions opts = new DeliveryOptions().setSendTimeout(120_000);
    java.util.Set<String> listened = new java.util.HashSet<>();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      JsonObject cmd = new JsonObject(line);
      String session = cmd.getString("sessionId");
      switch (cmd.getString("cmd")) {
        case "submit": {
          if (vertx.isClustered() && listened.add(session)) {
            // a clustered publish reaches this node only where a consumer listens for it
            vertx.eventBus().<JsonObject>consumer(Addresses.events(session), msg -> {
              if (EventType.TURN_COMPLETED.wireName().equals(msg.body().getString("type"))) {
                print(new JsonObject().put("event", "result").put("results", msg.body().getJsonObject("data")));
              }
            });
          }
          String turnId = cmd.getJsonObject("turn").getString("turnId");
          JsonObject body = new JsonObject().put("agent", AGENT).put("sessionId", session)
              .put("turn", cmd.getJsonObject("turn"));
          vertx.eventBus().<JsonObject>request(Addresses.SUBMIT, body, opts).onComplete(ar -> {
            if (ar.succeeded()) {
              JsonObject reply = ar.result().body();
              print(new JsonObject().put("event", "accepted").put("sessionId", session).put("turnId", turnId)
                  .put("status", reply.getString("status")));
              if ("completed".equals(reply.getString("status"))) {
                print(new JsonObject().put("event", "result").put("results", reply.getJsonObject("results")));
              }
            } else {
              print(error(session, turnId, ar.cause()));
            }
          });
          break;
        }
        case "decide":
          vertx.eventBus().<JsonObject>request(Addresses.DECIDE, cmd.getJsonObject("decision"), opts)
              .onComplete(ar -> print(new JsonObject().put("event", "decided").put("sessionId", session)
                  .put("callId", cmd.getJsonObject("decision").getString("callId"))
                  .put("answer", ar.succeeded() ? "accepted" : ar.cause().getMessage())));
          break;
        default:
          print(new JsonObject().put("event", "error").put("message", "unknown command " + cmd.getString("cmd")));
      }
    }
  }

  private static JsonObject error(String session, String turnId, Throwable err) {
    JsonObject json = new JsonObject().put("event", "error").put("sessionId", session).put("turnId", turnId)
        .put("message", err.getMessage());
    if (err instanceof ReplyException) {
      json.put("status", ((ReplyException) err).failureCode());
    }
    return json;
  }

  static synchronized void print(JsonObject json) {
    System.out.println(json.encode());
    System.out.flush();
  }

  /** read_item (read), upsert (idempotent, with lookup), upsert_blind (idempotent, no lookup), charge and
   * charge_approved (non-idempotent, the second always asks a person). */
  static AgentDefinition agent(WebClient http, String provider) {
    Duration timeout = Duration.ofSeconds(30);
    FunctionToolSource tools = FunctionToolSource.create("chaos-provider")
        .tool(FunctionToolSource.define("read_item", EffectClass.READ).timeout(timeout)
            .invoke(inv -> call(http, provider + "/read", inv, "read")))
        .tool(FunctionToolSource.define("upsert", EffectClass.IDEMPOTENT_WRITE).timeout(timeout)
            .invoke(inv -> call(http, provider + "/effect", inv, "idempotent"))
            .lookup(inv -> http.getAbs(provider + "/lookup").addQueryParam("key", inv.idempotencyKey().value())
                .send().map(r -> r.statusCode() == 200 ? Optional.of(ToolResult.success(r.bodyAsJsonObject()))
                    : Optional.<ToolResult>empty())))
        .tool(FunctionToolSource.define("upsert_blind", EffectClass.IDEMPOTENT_WRITE).timeout(timeout)
            .invoke(inv -> call(http, provider + "/effect", inv, "idempotent")))
        .tool(FunctionToolSource.define("charge", EffectClass.NON_IDEMPOTENT_WRITE).timeout(timeout)
            .invoke(inv -> call(http, provider + "/effect", inv, "non_idempotent")))
        .tool(FunctionToolSource.define("charge_approved", EffectClass.NON_IDEMPOTENT_WRITE).timeout(timeout)
            .approval(ApprovalRule.always())
            .invoke(inv -> call(http, provider + "/effect", inv, "non_idempotent")));
    return AgentDefinition.builder(AGENT).toolSource(tools).build();
  }

  private static Future<ToolResult> call(WebClient http, String url, ToolInvocation inv, String kind) {
    return http.postAbs(url).addQueryParam("key", inv.idempotencyKey().value())
        .addQueryParam("call", inv.callId().value()).addQueryParam("kind", kind)
        .addQueryParam("fail", String.valueOf(inv.arguments().getBoolean("fail", false)))
        .sendJsonObject(inv.arguments())
        .map(r -> r.statusCode() == 200 ? ToolResult.success(r.bodyAsJsonObject())
            : ToolResult.rejected("provider answered " + r.statusCode()));
  }
}
