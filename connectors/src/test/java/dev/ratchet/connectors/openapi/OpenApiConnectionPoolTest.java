package dev.ratchet.connectors.openapi;

import dev.ratchet.connectors.Connection;
import dev.ratchet.connectors.ConnectionsException;
import dev.ratchet.connectors.ConnectorToolSource;
import dev.ratchet.connectors.OpenApiConnector;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.IdempotencyKey;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolNotSentException;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.TurnResult;
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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.ratchet.connectors.ConnectorTool.connectorTool;
import static dev.ratchet.connectors.testing.Invocations.failure;
import static dev.ratchet.connectors.testing.Invocations.invocation;
import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A write waiting for one of the connection's pooled connections has not left the process, so the
 * journal does not hold it as started: a node that loses the session meanwhile never sends it,
 * and the node that takes over runs it once instead of reporting {@code outcome_unknown}.
 */
class OpenApiConnectionPoolTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private static final String DOCUMENT = """
      {"openapi": "3.0.3", "info": {"title": "Shop", "version": "1"},
       "paths": {
         "/slow": {"post": {"operationId": "slowWrite", "responses": {"200": {"description": "ok"}}}},
         "/orders": {"post": {"operationId": "createOrder", "responses": {"201": {"description": "ok"}}}}}}
      """;

  private final List<Vertx> nodes = new ArrayList<>();
  private final List<HttpServerResponse> held = new CopyOnWriteArrayList<>();
  private final AtomicInteger slowReceived = new AtomicInteger();
  private final AtomicInteger ordersReceived = new AtomicInteger();
  private Vertx serverVertx;
  private HttpServer server;

  @BeforeEach
  void setUp() {
    serverVertx = Vertx.vertx();
    server = await(serverVertx.createHttpServer().requestHandler(req -> {
      if (req.path().equals("/slow")) {
        slowReceived.incrementAndGet();
        held.add(req.response());
      } else {
        ordersReceived.incrementAndGet();
        req.response().setStatusCode(201).putHeader("Content-Type", "application/json").end("{\"orderId\":\"o-1\"}");
      }
    }).listen(0, "127.0.0.1"));
  }

  @AfterEach
  void tearDown() {
    for (Vertx v : nodes) {
      await(v.close());
    }
    await(serverVertx.close());
  }

  private Connection connection(int maxConnections) {
    return Connection.of("shop", "openapi", new JsonObject().put("baseUrl", "http://127.0.0.1:" + server.actualPort())
        .put("maxConnections", maxConnections), Map.of());
  }

  /** One runtime node: its own Vert.x, journal client and connector, running the given sessions. */
  private final class Node {
    final Vertx vertx = Vertx.vertx();
    final RedisJournal journal;
    final ToolCatalog catalog;

    Node() {
      nodes.add(vertx);
      journal = await(RedisJournal.open(vertx, JournalOptions.of(REDIS.url()).withKeyPrefix(REDIS.keyPrefix())));
      OpenApiConnector shop = OpenApiConnector.parse(vertx, "shop", DOCUMENT, "shop.json", connection(1));
      catalog = await(ToolCatalog.resolve(vertx, AgentDefinition.builder("shop-agent").toolSource(ConnectorToolSource
          .of(connectorTool(shop.operation("slowWrite")), connectorTool(shop.operation("createOrder")))).build()));
    }

    SessionEngine engine(String sessionId, String name) {
      SessionEngine engine = new SessionEngine(vertx, journal, sessionId, catalog, EngineOptions.DEFAULT, null);
      await(engine.start(name));
      return engine;
    }
  }

  @Test
  void aWriteQueuedForAConnectionWhenTheSessionMovesIsNeverSentByTheOldNodeAndRunsOnceOnTheNewOne() {
    String holder = "s-" + UUID.randomUUID();
    String waiter = "s-" + UUID.randomUUID();
    Turn slow = Turn.of("t1", new ToolCall("shop_slow_write", new JsonObject()));
    Turn order = Turn.of("t1", new ToolCall("shop_create_order", new JsonObject()));

    Node first = new Node();
    first.engine(holder, "node-1").submit(slow);
    Await.until(() -> slowReceived.get() == 1, 10);
    Future<TurnResult> stale = first.engine(waiter, "node-1").submit(order);
    CallId queued = order.callId(waiter, 0);
    // the only connection is busy: the write waits in the pool, and the journal says it was not sent
    Await.until(() -> await(first.journal.inflightTurns(waiter)).size() == 1, 10);
    assertThat(await(first.journal.callState(waiter, queued)).state().wireName()).isEqualTo("new");

    Node second = new Node();
    SessionEngine takeover = second.engine(waiter, "node-2");
    held.forEach(r -> r.setStatusCode(200).end("{}"));
    CallResult r = await(takeover.submit(order)).call(0);
    // the old node's write got a connection only once the session had moved: its start was refused
    // and its turn ended there; then its connections close, so nothing of it can leave later
    assertThat(((RatchetException) Await.failure(stale)).code()).isEqualTo("FENCED");
    await(first.vertx.close());

    assertThat(r.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(r.result()).isEqualTo(new JsonObject().put("orderId", "o-1"));
    assertThat(ordersReceived).hasValue(1);
  }

  @Test
  void aWriteThatNeverGetsAConnectionWithinItsTimeoutSaysNothingWasSent() {
    Vertx vertx = Vertx.vertx();
    nodes.add(vertx);
    OpenApiConnector shop = OpenApiConnector.parse(vertx, "shop", DOCUMENT, "shop.json", connection(1));
    shop.operation("slowWrite").execute(invocation("t1", 0, new JsonObject()));
    Await.until(() -> slowReceived.get() == 1, 10);

    ToolInvocation shortOne = new ToolInvocation("session-1", CallId.of("session-1", "t1", 1),
        IdempotencyKey.of(CallId.of("session-1", "t1", 1), new JsonObject()), 1, new JsonObject(),
        System.currentTimeMillis() + 300);
    Throwable failed = failure(shop.operation("createOrder").execute(shortOne));

    assertThat(failed).isInstanceOf(ToolNotSentException.class).hasMessageContaining("nothing was sent");
    assertThat(failed.getMessage()).doesNotContain("after the request was sent");
    assertThat(ordersReceived).hasValue(0);
  }

  @Test
  void maxConnectionsMustBeAPositiveWholeNumber() {
    Vertx vertx = Vertx.vertx();
    nodes.add(vertx);
    assertThatThrownBy(() -> OpenApiConnector.parse(vertx, "shop", DOCUMENT, "shop.json", connection(0)))
        .isInstanceOf(ConnectionsException.class).hasMessageContaining("config.maxConnections");
  }
}
