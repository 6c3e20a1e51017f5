package dev.ratchet.verticles.crash;

import dev.ratchet.model.langchain4j.LangChain4jModel;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.RetryPolicy;
import dev.ratchet.runtime.ToolResult;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import dev.ratchet.verticles.StepEvents;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.time.Duration;

import static dev.ratchet.runtime.testing.Await.await;

/**
 * A runtime with an agent-loop agent in its own JVM, for crash tests: its model is LangChain4j's
 * OpenAI client pointed at a test server, its one tool a non-idempotent write to a counting
 * provider. With {@code hold} it stops its session's event loop right after the first model
 * response is journaled (before the turn is submitted) and says so, so that the test can kill it
 * exactly there. Commands on stdin: {@code {"cmd":"send","session","text"}}. Prints JSON lines.
 * Arguments: redis url, key prefix, model base URL, provider URL, hold|run.
 */
public final class AgentCrashNode {

  public static void main(String[] args) throws Exception {
    String redisUrl = args[0];
    String prefix = args[1];
    String modelUrl = args[2];
    String provider = args[3];
    boolean hold = "hold".equals(args[4]);
    Vertx vertx = Vertx.vertx();
    WebClient http = WebClient.create(vertx);
    StepEvents.publishAll(vertx);
    vertx.eventBus().addOutboundInterceptor(ctx -> {
      Object body = ctx.message().body();
      if (ctx.message().address().endsWith(".events") && body instanceof JsonObject event) {
        String type = event.getString("type");
        if ("message.assistant".equals(type)) {
          NodeProtocol.print(new JsonObject().put("event", "answer").put("reply", event.getJsonObject("data")));
        } else if ("model.response".equals(type) && hold) {
          NodeProtocol.print(new JsonObject().put("event", "model-journaled").put("data", event.getJsonObject("data")));
          try {
            Thread.sleep(600_000);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      }
      ctx.next();
    });
    RatchetNode ratchet = await(RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl(redisUrl).keyPrefix(prefix)
        .nodeId("agent-crash-node-" + ProcessHandle.current().pid())));
    FunctionToolSource tools = FunctionToolSource.create("provider")
        .tool(FunctionToolSource.define("pay", EffectClass.NON_IDEMPOTENT_WRITE).description("Pay an amount")
            .schema(new JsonObject("""
                {"type":"object","properties":{"amount":{"type":"number"}},"required":["amount"]}"""))
            .timeout(Duration.ofSeconds(30))
            .invoke(inv -> http.postAbs(provider + "/effect").addQueryParam("key", inv.idempotencyKey().value())
                .addQueryParam("tool", "pay").sendJsonObject(inv.arguments())
                .map((HttpResponse<Buffer> r) -> r.statusCode() == 200 ? ToolResult.success(r.bodyAsJsonObject())
                    : ToolResult.rejected("provider answered " + r.statusCode()))));
    await(ratchet.register(AgentDefinition.builder("agent-crash").toolSource(tools)
        .model(LangChain4jModel.openAi(vertx, "test-model", "sk-test", modelUrl, Duration.ofSeconds(20)))
        .modelRetry(RetryPolicy.NONE).maxTurns(3).build()));
    NodeProtocol.print(new JsonObject().put("event", "ready"));

    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    String line;
    while ((line = in.readLine()) != null) {
      JsonObject cmd = new JsonObject(line);
      if ("send".equals(cmd.getString("cmd"))) {
        ratchet.send("agent-crash", cmd.getString("session"), cmd.getString("text"))
            .onSuccess(r -> NodeProtocol.print(new JsonObject().put("event", "reply").put("reply", r.toJson())))
            .onFailure(err -> NodeProtocol.print(new JsonObject().put("event", "error").put("message", err.getMessage())));
      }
    }
  }
}
