package dev.ratchet.verticles.clients;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.verticles.http.HttpOptions;
import dev.ratchet.verticles.http.HttpRuntime;
import dev.ratchet.verticles.http.HttpServerVerticle;
import dev.ratchet.verticles.http.PasswordHash;
import dev.ratchet.verticles.http.Role;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.ratchet.runtime.testing.Await.await;

/**
 * The Ratchet the client packages' tests talk to: agent {@code shop} with a read, a write that
 * always asks for approval, and a write that does not; every write counted per order, and the
 * counts readable through the read tool {@code count_writes}, so a test in another language can
 * check that a write ran exactly once.
 */
final class ClientsRuntime extends HttpRuntime {

  static final String AGENT = "shop";
  static final String AGENT_TOKEN = "rt_clients-agent-token-0123456789";
  static final String APPROVER_TOKEN = "rt_clients-approver-token-0123456789";
  /** How often a waiting MCP call reports progress: well under the short timeouts the MCP tests set. */
  static final long PROGRESS_MILLIS = 400;

  private final Map<String, AtomicInteger> writes;

  ClientsRuntime(TestRedis redis) {
    this(redis, 0, new ConcurrentHashMap<>());
  }

  /** A runtime serving on {@code port}, as a restarted Ratchet comes back where it was. */
  ClientsRuntime(TestRedis redis, int port) {
    this(redis, port, new ConcurrentHashMap<>());
  }

  /** A runtime on {@code port} (0: any free one) that counts writes in {@code writes}, kept across restarts. */
  ClientsRuntime(TestRedis redis, int port, Map<String, AtomicInteger> writes) {
    super(redis, o -> o);
    this.writes = writes;
    FunctionToolSource tools = FunctionToolSource.create("shop-tools")
        .read("look_up_order", "Finds an order by its number", schema("order"),
            inv -> Future.succeededFuture(new JsonObject().put("order", inv.arguments().getString("order"))
                .put("status", "shipped")))
        .read("count_writes", "How many times each write ran for an order", schema("order"),
            inv -> Future.succeededFuture(counts(inv.arguments().getString("order"))))
        .tool(FunctionToolSource.define("cancel_order", EffectClass.NON_IDEMPOTENT_WRITE)
            .description("Cancels an order").schema(schema("order")).approval(ApprovalRule.always())
            .handler(inv -> write("cancel_order", inv.arguments())))
        .tool(FunctionToolSource.define("add_note", EffectClass.NON_IDEMPOTENT_WRITE)
            .description("Adds a note to an order").schema(schema("order"))
            .handler(inv -> write("add_note", inv.arguments())));
    await(ratchet.register(AgentDefinition.builder(AGENT).toolSource(tools).build()));
    serve(new HttpServerVerticle(ratchet, HttpOptions.create().port(port).host("127.0.0.1")
        .mcpProgressMillis(PROGRESS_MILLIS)
        .token("clients-bot", Role.AGENT, PasswordHash.hashToken(AGENT_TOKEN))
        .token("clients-approver", Role.APPROVER, PasswordHash.hashToken(APPROVER_TOKEN), null,
            List.of("clients-bot"))));
  }

  private static JsonObject schema(String required) {
    return new JsonObject().put("type", "object")
        .put("properties", new JsonObject().put(required, new JsonObject().put("type", "string"))
            .put("note", new JsonObject().put("type", "string")))
        .put("required", new io.vertx.core.json.JsonArray().add(required));
  }

  private Future<Object> write(String tool, JsonObject arguments) {
    int n = writes.computeIfAbsent(tool + "/" + arguments.getString("order"), k -> new AtomicInteger()).incrementAndGet();
    return Future.succeededFuture((Object) new JsonObject().put("done", tool).put("order", arguments.getString("order"))
        .put("time", n));
  }

  private JsonObject counts(String order) {
    JsonObject counts = new JsonObject();
    writes.forEach((key, n) -> {
      if (key.endsWith("/" + order)) {
        counts.put(key.substring(0, key.indexOf('/')), n.get());
      }
    });
    return counts;
  }

  /** The environment a client test process gets: where Ratchet is and the two tokens. */
  Map<String, String> environment() {
    return Map.of("RATCHET_URL", baseUrl(), "RATCHET_AGENT", AGENT, "RATCHET_AGENT_TOKEN", AGENT_TOKEN,
        "RATCHET_APPROVER_TOKEN", APPROVER_TOKEN);
  }
}
