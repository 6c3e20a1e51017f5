package dev.ratchet.verticles.crash;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolResult;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;

import java.time.Duration;
import java.util.Optional;

import static dev.ratchet.runtime.testing.Await.await;

/**
 * A runtime in its own JVM, for crash tests: tools that call a provider over HTTP, commands on
 * stdin (one JSON object a line), and every completed turn printed on stdout as a JSON line.
 * Arguments: redis url, key prefix, provider base URL.
 */
public final class CrashNode {

  public static void main(String[] args) throws Exception {
    String redisUrl = args[0];
    String prefix = args[1];
    String provider = args[2];
    Vertx vertx = Vertx.vertx();
    WebClient http = WebClient.create(vertx);
    NodeProtocol.printCompletedTurnsAndFencing(vertx);
    RatchetNode ratchet = await(RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl(redisUrl).keyPrefix(prefix)
        .nodeId("crash-node-" + ProcessHandle.current().pid())));
    await(ratchet.register(agent(http, provider)));
    NodeProtocol.print(new JsonObject().put("event", "ready"));

    NodeProtocol.serve(ratchet, cmd -> "crash");
  }

  private static AgentDefinition agent(WebClient http, String provider) {
    FunctionToolSource tools = FunctionToolSource.create("provider")
        .tool(FunctionToolSource.define("read_order", EffectClass.READ).timeout(Duration.ofSeconds(60))
            .invoke(inv -> call(http, provider + "/read", inv, "read_order")))
        .tool(FunctionToolSource.define("pay", EffectClass.NON_IDEMPOTENT_WRITE).timeout(Duration.ofSeconds(60))
            .invoke(inv -> call(http, provider + "/effect", inv, "pay")))
        .tool(FunctionToolSource.define("refund", EffectClass.IDEMPOTENT_WRITE).timeout(Duration.ofSeconds(60))
            .invoke(inv -> call(http, provider + "/effect", inv, "refund"))
            .lookup(inv -> http.getAbs(provider + "/lookup").addQueryParam("key", inv.idempotencyKey().value()).send()
                .map(r -> r.statusCode() == 200 ? Optional.of(ToolResult.success(r.bodyAsJsonObject()))
                    : Optional.<ToolResult>empty())))
        .tool(FunctionToolSource.define("approve_me", EffectClass.NON_IDEMPOTENT_WRITE)
            .timeout(Duration.ofSeconds(60)).approval(ApprovalRule.always())
            .invoke(inv -> call(http, provider + "/effect", inv, "approve_me")));
    return AgentDefinition.builder("crash").toolSource(tools).build();
  }

  private static Future<ToolResult> call(WebClient http, String url, ToolInvocation inv, String tool) {
    return http.postAbs(url).addQueryParam("key", inv.idempotencyKey().value()).addQueryParam("tool", tool)
        .addQueryParam("call", inv.callId().value()).sendJsonObject(inv.arguments())
        .map((HttpResponse<Buffer> r) -> r.statusCode() == 200 ? ToolResult.success(r.bodyAsJsonObject())
            : ToolResult.rejected("provider answered " + r.statusCode()));
  }
}
