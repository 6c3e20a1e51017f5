package dev.ratchet.server.config;

import dev.ratchet.connectors.Connection;
import dev.ratchet.connectors.Connections;
import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.testing.Await;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fifty reloads of an agent of 300 tools leave nothing behind: every replaced catalogue, and the
 * load it came from, becomes unreachable once no turn uses it (measured with weak references,
 * which the collector clears exactly when nothing else holds the object), while a write waiting
 * for approval keeps its own catalogue until it is decided.
 */
class ReloadWithoutGrowthTest extends AgentFilesReloadFixture {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private static final int RELOADS = 50;

  private Path spec;

  @BeforeEach
  void start() throws Exception {
    spec = tmp.resolve("items.json");
    JsonObject paths = new JsonObject();
    JsonObject item = new JsonObject().put("type", "object").put("properties", new JsonObject()
        .put("name", new JsonObject().put("type", "string").put("description", "what the item is called"))
        .put("tags", new JsonObject().put("type", "array").put("items", new JsonObject().put("type", "string"))));
    for (int i = 0; i < 300; i++) {
      paths.put("/items" + i, new JsonObject().put("get", new JsonObject().put("operationId", "listItems" + i)
          .put("summary", "List the items of shelf " + i).put("responses", new JsonObject())));
    }
    paths.put("/items", new JsonObject().put("post", new JsonObject().put("operationId", "createItem")
        .put("requestBody", new JsonObject().put("required", true).put("content", new JsonObject()
            .put("application/json", new JsonObject().put("schema", item)))).put("responses", new JsonObject())));
    Files.writeString(spec, new JsonObject().put("openapi", "3.0.3").put("info", new JsonObject()
        .put("title", "Items").put("version", "1")).put("paths", paths).encode());
    Connections connections = Connections.of(Connection.of("items", "openapi",
        new JsonObject().put("baseUrl", "http://127.0.0.1:1"), Map.of()));
    loadAgents(connections);
  }

  /** Each reload's file differs (its prompt and one tool's description), so each defines a new catalogue. */
  private void writeAgent(int n) throws Exception {
    Path part = agents.resolve("items.yaml.part");
    Files.writeString(part, """
        agent: items
        systemPrompt: "version %d"
        tools:
          - openapi: %s
            connection: items
            operations: all
            approval: { createItem: always }
            rename: { listItems0: shelf_%d }
        """.formatted(n, spec, n));
    Files.move(part, agents.resolve("items.yaml"), StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.ATOMIC_MOVE);
  }

  @Test
  void fiftyReloadsOfThreeHundredToolsKeepOnlyWhatTurnsStillUse() throws Exception {
    writeAgent(0);
    assertThat(await(reloader.reload("start")).getString("status")).isEqualTo("reloaded");
    assertThat(ratchet.queries().catalog("items").entries()).hasSize(301);
    // a write waiting for approval, validated against the first catalogue
    Future<TurnResult> waiting = ratchet.submit("items", "s1", Turn.of("t1", new ToolCall("items_create_item",
        new JsonObject().put("body", new JsonObject().put("name", "lamp")))));
    Await.until(() -> !await(ratchet.pendingApprovals()).isEmpty(), 10);
    WeakReference<ToolCatalog> usedByTheWaitingTurn = new WeakReference<>(ratchet.queries().catalog("items"));

    List<WeakReference<ToolCatalog>> replaced = new ArrayList<>();
    List<WeakReference<Object>> replacedDefinitions = new ArrayList<>();
    for (int n = 1; n <= RELOADS; n++) {
      if (n > 1) {
        replaced.add(new WeakReference<>(ratchet.queries().catalog("items")));
        replacedDefinitions.add(new WeakReference<>(loader.agents().get(0)));
      }
      writeAgent(n);
      JsonObject report = await(reloader.reload("reload " + n));
      assertThat(report.getString("status")).as(report.encode()).isEqualTo("reloaded");
    }
    assertThat(ratchet.queries().catalog("items").get("shelf_" + RELOADS)).isNotNull();

    // one more reload lets go of the loads whose catalogues were collected meanwhile
    collect(replaced);
    writeAgent(RELOADS + 1);
    await(reloader.reload("after collection"));
    collect(replacedDefinitions);
    assertThat(replaced).allMatch(r -> r.get() == null);
    assertThat(replacedDefinitions).allMatch(r -> r.get() == null);
    assertThat(usedByTheWaitingTurn.get()).as("the waiting turn's catalogue").isNotNull();
    // the waiting turn's load, and perhaps the one just replaced if the collector has not run since
    assertThat(loader.retiredLoads()).isBetween(1, 2);

    // decided, the waiting write runs with the tools it was validated against, and then lets go of them
    ApprovalRequest pending = await(ratchet.pendingApprovals()).get(0);
    await(ratchet.decide(ApprovalDecision.approve(pending, "alice", "ok")));
    assertThat(await(waiting).call(0).error()).contains("POST /items");
    writeAgent(RELOADS + 2);
    collect(List.of(usedByTheWaitingTurn));
    await(reloader.reload("after the turn"));
    assertThat(usedByTheWaitingTurn.get()).isNull();
    assertThat(loader.retiredLoads()).isLessThanOrEqualTo(1);
  }

  /** Runs the collector until every reference is cleared, or ten times; the assertions say which were not. */
  private static <T> void collect(List<WeakReference<T>> refs) throws InterruptedException {
    for (int i = 0; i < 10 && refs.stream().anyMatch(r -> r.get() != null); i++) {
      System.gc();
      Thread.sleep(50);
    }
  }
}
