package dev.ratchet.connectors.openapi;

import dev.ratchet.connectors.Connection;
import dev.ratchet.connectors.ConnectorToolSource;
import dev.ratchet.connectors.OpenApiConnector;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.engine.EngineOptions;
import dev.ratchet.runtime.engine.SessionEngine;
import dev.ratchet.runtime.journal.JournalOptions;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.runtime.testing.Await;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.ratchet.connectors.ConnectorTool.connectorTool;
import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a call's outcome says about the way to the provider, through the engine and a real local
 * server: time a write spends waiting for a pooled connection is not taken from its request, a
 * write whose time runs out while it waits says nothing was sent, and a read that the provider
 * answered never says it did not run.
 */
class OpenApiProviderOutcomesTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private static final String DOCUMENT = """
      {"openapi": "3.0.3", "info": {"title": "Shop", "version": "1"},
       "paths": {
         "/hold": {"post": {"operationId": "holdConnection", "x-ratchet-agent": {"timeoutMs": 20000},
                            "responses": {"200": {"description": "ok"}}}},
         "/orders": {"post": {"operationId": "createOrder", "x-ratchet-agent": {"timeoutMs": 1500},
                              "responses": {"201": {"description": "ok"}}}},
         "/quick": {"post": {"operationId": "quickOrder", "x-ratchet-agent": {"timeoutMs": 400},
                             "responses": {"201": {"description": "ok"}}}},
         "/stock": {"get": {"operationId": "getStock", "responses": {"200": {"description": "ok"}}}},
         "/ping": {"get": {"operationId": "ping", "responses": {"200": {"description": "ok"}}}}}}
      """;

  private final List<HttpServerResponse> held = new CopyOnWriteArrayList<>();
  private final AtomicInteger ordersReceived = new AtomicInteger();
  private final AtomicInteger stockReceived = new AtomicInteger();
  private Vertx serverVertx;
  private HttpServer server;
  private Vertx vertx;
  private OpenApiConnector shop;
  private SessionEngine engine;
  private RedisJournal journal;
  private ToolCatalog catalog;

  @BeforeEach
  void setUp() {
    serverVertx = Vertx.vertx();
    server = await(serverVertx.createHttpServer().requestHandler(req -> {
      switch (req.path()) {
        case "/hold" -> held.add(req.response());
        case "/orders", "/quick" -> {
          ordersReceived.incrementAndGet();
          // answered 900 ms after it arrives: within the write's 1500 ms, counted from when it was sent
          serverVertx.setTimer(900, t -> req.response().setStatusCode(201).putHeader("Content-Type",
              "application/json").end("{\"orderId\":\"o-1\"}"));
        }
        case "/stock" -> {
          stockReceived.incrementAndGet();
          req.response().setStatusCode(503).end("busy");
        }
        default -> req.response().putHeader("Content-Type", "application/json").end("{}");
      }
    }).listen(0, "127.0.0.1"));
    vertx = Vertx.vertx();
    Connection connection = Connection.of("shop", "openapi", new JsonObject()
        .put("baseUrl", "http://127.0.0.1:" + server.actualPort()).put("maxConnections", 1), Map.of());
    shop = OpenApiConnector.parse(vertx, "shop", DOCUMENT, "shop.json", connection);
    journal = await(RedisJournal.open(vertx, JournalOptions.of(REDIS.url())
        .withKeyPrefix(REDIS.keyPrefix())));
    catalog = await(ToolCatalog.resolve(vertx, AgentDefinition.builder("shop-agent")
        .toolSource(ConnectorToolSource.of(connectorTool(shop.operation("holdConnection")),
            connectorTool(shop.operation("createOrder")), connectorTool(shop.operation("quickOrder")),
            connectorTool(shop.operation("getStock")), connectorTool(shop.operation("ping")))).build()));
    engine = new SessionEngine(vertx, journal, "s-" + UUID.randomUUID(), catalog, EngineOptions.DEFAULT, null);
    await(engine.start("node-1"));
  }

  @AfterEach
  void tearDown() {
    held.forEach(r -> r.reset());
    shop.close();
    await(vertx.close());
    await(serverVertx.close());
  }

  /** Holds the connector's only connection in another session until {@link #release()}. */
  private void holdTheOnlyConnection() {
    SessionEngine other = new SessionEngine(vertx, journal, "s-" + UUID.randomUUID(), catalog,
        EngineOptions.DEFAULT, null);
    await(other.start("node-1"));
    other.submit(Turn.of("hold", new ToolCall("shop_hold_connection", new JsonObject())));
    Await.until(() -> held.size() == 1, 10);
  }

  private void release() {
    held.forEach(r -> r.setStatusCode(200).putHeader("Content-Type", "application/json").end("{}"));
  }

  @Test
  void aWritesTimeoutStartsWhenItHasItsConnectionNotWhileItWaitsForOne() {
    holdTheOnlyConnection();
    Future<CallResult> order = engine.submit(Turn.of("t1", new ToolCall("shop_create_order", new JsonObject())))
        .map(r -> r.call(0));
    // the write waits 1000 ms of its 1500 for the connection, then the provider takes 900 ms more
    serverVertx.setTimer(1000, t -> release());

    CallResult r = await(order);
    assertThat(r.outcome()).as(String.valueOf(r.error())).isEqualTo(Outcome.SUCCEEDED);
    assertThat(r.result()).isEqualTo(new JsonObject().put("orderId", "o-1"));
    assertThat(ordersReceived).hasValue(1);
  }

  @Test
  void aWriteStillQueuedWhenItsTimeRunsOutDidNotRunAndIsNeverSentLater() {
    holdTheOnlyConnection();
    CallResult r = await(engine.submit(Turn.of("t1", new ToolCall("shop_quick_order", new JsonObject())))).call(0);
    assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(r.error()).startsWith(CallResult.NOT_RUN_PREFIX).doesNotContain("may have been applied");

    release();
    // the pool serves waiters in order: once this later read is answered, the abandoned write would have gone first
    CallResult ping = await(engine.submit(Turn.of("t2", new ToolCall("shop_ping", new JsonObject())))).call(0);
    assertThat(ping.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(ordersReceived).hasValue(0);
  }

  @Test
  void aReadTheProviderAnsweredThreeTimesNeverSaysItDidNotRun() {
    CallResult r = await(engine.submit(Turn.of("t1", new ToolCall("shop_get_stock", new JsonObject())))).call(0);
    assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(r.attempts()).isEqualTo(3);
    assertThat(stockReceived).hasValue(3);
    assertThat(r.error()).contains("HTTP 503").doesNotStartWith(CallResult.NOT_RUN_PREFIX)
        .doesNotContain("did not run");
  }
}
