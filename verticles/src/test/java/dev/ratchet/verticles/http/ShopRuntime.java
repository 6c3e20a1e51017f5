package dev.ratchet.verticles.http;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolResult;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.ratchet.runtime.testing.Await.await;

/**
 * A runtime on real Redis with one agent, {@code shop}, and the HTTP server on a free port.
 * Users: ana (approver), vic (viewer), both seeing every tenant, and tess (approver) who sees
 * tenant-t's sessions only; token {@link #AGENT_TOKEN} (agent).
 */
final class ShopRuntime extends HttpRuntime {

  static final String AGENT_TOKEN = "rt_test-agent-token-0123456789";
  static final String PASSWORD = "correct horse battery staple";

  private HttpOptions httpOptions;
  private String httpDeployment;
  /** Arguments every write actually ran with, in order. */
  final List<JsonObject> writes = new CopyOnWriteArrayList<>();

  ShopRuntime(TestRedis redis) {
    this(redis, null, java.util.function.UnaryOperator.identity());
  }

  /** With the HTTP options changed by {@code tune} (before the server starts). */
  ShopRuntime(TestRedis redis, java.util.function.UnaryOperator<HttpOptions> tune) {
    this(redis, null, tune);
  }

  /** As {@link #ShopRuntime(TestRedis)}, serving HTTP with these settings (port and host are set here). */
  ShopRuntime(TestRedis redis, HttpOptions http) {
    this(redis, http, java.util.function.UnaryOperator.identity());
  }

  private ShopRuntime(TestRedis redis, HttpOptions http, java.util.function.UnaryOperator<HttpOptions> tune) {
    super(redis, o -> o.sessionIdleMillis(2_000));
    FunctionToolSource tools = FunctionToolSource.create("shop-tools")
        .read("look_up_order", "Find an order", new JsonObject().put("type", "object"),
            inv -> Future.succeededFuture(new JsonObject().put("order", inv.arguments().getString("id"))
                .put("status", "shipped")))
        .tool(FunctionToolSource.define("refund_order", EffectClass.NON_IDEMPOTENT_WRITE)
            .description("Refund an order").approval(ApprovalRule.always())
            .handler(inv -> {
              writes.add(inv.arguments());
              return Future.succeededFuture(new JsonObject().put("refunded", true));
            }))
        .tool(FunctionToolSource.define("post_message", EffectClass.NON_IDEMPOTENT_WRITE)
            .description("Post to Slack").approval(ApprovalRule.always())
            .handler(inv -> {
              writes.add(inv.arguments());
              return Future.succeededFuture(new JsonObject().put("posted", true));
            }))
        .tool(FunctionToolSource.define("charge_card", EffectClass.NON_IDEMPOTENT_WRITE)
            .description("Charge a card; the provider times out")
            .invoke(inv -> {
              writes.add(inv.arguments());
              return Future.succeededFuture(ToolResult.uncertain("the provider did not answer in time"));
            }));
    await(ratchet.register(AgentDefinition.builder("shop").toolSource(tools).build()));
    HttpOptions options = http != null ? http.port(0).host("127.0.0.1") : HttpOptions.create().port(0).host("127.0.0.1").bodyLimitBytes(64 * 1024)
        .user("ana", Role.APPROVER, PasswordHash.hashPassword(PASSWORD.toCharArray(), 1_000), null, List.of("*"))
        .user("vic", Role.VIEWER, PasswordHash.hashPassword(PASSWORD.toCharArray(), 1_000), null, List.of("*"))
        .user("tess", Role.APPROVER, PasswordHash.hashPassword(PASSWORD.toCharArray(), 1_000), null,
            List.of("tenant-t"))
        .token("support-bot", Role.AGENT, PasswordHash.hashToken(AGENT_TOKEN));
    httpOptions = tune.apply(options);
    httpDeployment = serve(new HttpServerVerticle(ratchet, httpOptions));
  }

  /** Stops the HTTP server only, as a network outage would look to a browser; the runtime goes on. */
  void stopHttp() {
    httpOptions.port(server.actualPort());
    await(vertx.undeploy(httpDeployment));
  }

  /** Starts the HTTP server again on the port it had. */
  void startHttp() {
    httpDeployment = serve(new HttpServerVerticle(ratchet, httpOptions));
  }
}
