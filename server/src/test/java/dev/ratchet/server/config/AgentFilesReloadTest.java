package dev.ratchet.server.config;

import dev.ratchet.connectors.Connections;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.server.demo.DemoShop;
import dev.ratchet.server.demo.ShopService;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reloading a directory of agent files into a running runtime, on real Redis against the demo's
 * shop service: a changed file takes effect for new turns, a file with a problem changes nothing
 * and the report names it, and a file agent named like an agent registered from Java is refused.
 */
class AgentFilesReloadTest extends AgentFilesReloadFixture {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private ShopService shop;
  private Path spec;

  @BeforeEach
  void start() throws Exception {
    shop = await(DemoShop.start(vertx));
    spec = Path.of("conf/specs/shop.json");
    if (!Files.exists(spec)) {
      spec = Path.of("../conf/specs/shop.json");
    }
    spec = spec.toAbsolutePath().normalize();
    loadAgents(Connections.of(DemoShop.connection(shop.baseUrl())));
  }

  private void write(String file, String text) throws Exception {
    Path part = agents.resolve(file + ".part");
    Files.writeString(part, text);
    Files.move(part, agents.resolve(file), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** The shop agent offering {@code operations}; a cancel runs without asking. */
  private String shopAgent(String operations) {
    return """
        agent: order-support
        tools:
          - openapi: %s
            connection: demo-shop
            operations: [%s]
        """.formatted(spec, operations)
        + (operations.contains("cancelOrder") ? "    approval:\n      cancelOrder: never\n" : "");
  }

  private TurnResult cancel(String sessionId, String orderId) {
    return await(ratchet.submit("order-support", sessionId, Turn.of("t1",
        new ToolCall("shop_cancel_order", new JsonObject().put("orderId", orderId)))));
  }

  @Test
  void aChangedAgentFileTakesEffectForNewTurnsAndAFileWithAProblemChangesNothing() throws Exception {
    write("shop.yaml", shopAgent("lookUpOrder"));
    JsonObject first = await(reloader.reload("test"));
    assertThat(first.getString("status")).as(first.encode()).isEqualTo("reloaded");
    TurnResult before = cancel("s-before", "1002");
    assertThat(before.call(0).outcome().wireName()).isEqualTo("failed");
    assertThat(before.call(0).error()).contains("unknown tool 'shop_cancel_order'");
    assertThat(shop.stats().getInteger("cancelRequests")).isZero();

    write("shop.yaml", shopAgent("lookUpOrder, cancelOrder"));
    JsonObject second = await(reloader.reload("test"));
    assertThat(second.getString("status")).as(second.encode()).isEqualTo("reloaded");
    String version = ratchet.queries().catalog("order-support").version();
    assertThat(version).isNotEqualTo(first.getJsonArray("agents").getJsonObject(0).getString("catalogue"));
    TurnResult after = cancel("s-after", "1002");
    assertThat(after.call(0).outcome().wireName()).as(after.toJson().encode()).isEqualTo("succeeded");
    assertThat(shop.stats().getInteger("cancellations")).isEqualTo(1);

    write("shop.yaml", shopAgent("lookUpOrder, cancelOrder").replace("connection: demo-shop",
        "connection: demo-shop\n    operationz: [refundOrder]"));
    JsonObject broken = await(reloader.reload("test"));
    assertThat(broken.getString("status")).isEqualTo("failed");
    assertThat(broken.getString("error")).contains(agents.resolve("shop.yaml") + ":").contains("operationz");
    assertThat(Files.readString(tmp.resolve("reload.json"))).contains("operationz");
    assertThat(ratchet.queries().catalog("order-support").version()).isEqualTo(version);
    TurnResult stillServed = cancel("s-still", "1001");
    assertThat(stillServed.call(0).outcome().wireName()).isEqualTo("succeeded");
    assertThat(shop.stats().getInteger("cancellations")).isEqualTo(2);
  }

  @Test
  void aReloadKeepsAgentsRegisteredFromJavaAndRefusesAFileAgentOfTheSameName() throws Exception {
    AgentDefinition fromJava = AgentDefinition.builder("java-agent").toolSource(FunctionToolSource.create("j")
        .read("ping", "ping", new JsonObject().put("type", "object"), inv -> Future.succeededFuture("pong"))).build();
    await(ratchet.register(fromJava));
    write("shop.yaml", shopAgent("lookUpOrder, cancelOrder"));
    assertThat(await(reloader.reload("test")).getString("status")).isEqualTo("reloaded");
    assertThat(ratchet.queries().agents()).containsExactlyInAnyOrder("java-agent", "order-support");
    String version = ratchet.queries().catalog("order-support").version();

    write("clash.yaml", shopAgent("lookUpOrder").replace("agent: order-support", "agent: java-agent"));
    write("shop.yaml", shopAgent("lookUpOrder"));
    JsonObject refused = await(reloader.reload("test"));
    assertThat(refused.getString("status")).isEqualTo("failed");
    assertThat(refused.getString("error")).contains(agents.resolve("clash.yaml") + ":1")
        .contains("agent 'java-agent' is also registered from Java");
    assertThat(ratchet.queries().catalog("java-agent").origin()).isEqualTo("java");
    assertThat(ratchet.queries().catalog("order-support").version()).isEqualTo(version);
    assertThat(await(ratchet.submit("java-agent", "s-java", Turn.of("t1", new ToolCall("ping", null)))).call(0)
        .result()).isEqualTo("pong");
  }
}
