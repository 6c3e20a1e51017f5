package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.journal.JournalOptions;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import static dev.ratchet.runtime.testing.Await.await;

/**
 * The runtimes of a test that crashes and restarts them: each its own Vert.x and journal client on
 * one Redis, as separate machines are. All are closed after each test, the crashed ones included.
 */
final class RedisNodes implements AfterEachCallback {

  private final TestRedis redis;
  private final List<Vertx> opened = new CopyOnWriteArrayList<>();

  RedisNodes(TestRedis redis) {
    this.redis = redis;
  }

  /** A runtime's Vert.x and its journal client. */
  record Node(Vertx vertx, RedisJournal journal) {

    /** A session engine of {@code sessionId} for the agent, started as {@code name} (a claim of the session). */
    SessionEngine engine(String sessionId, String name, AgentDefinition agent, Consumer<JsonObject> events) {
      ToolCatalog catalog = await(ToolCatalog.resolve(vertx, agent));
      SessionEngine engine = new SessionEngine(vertx, journal, sessionId, catalog, EngineOptions.DEFAULT, events);
      await(engine.start(name));
      return engine;
    }
  }

  Node open() {
    Vertx vertx = Vertx.vertx();
    opened.add(vertx);
    return new Node(vertx, await(RedisJournal.open(vertx, JournalOptions.of(redis.url())
        .withKeyPrefix(redis.keyPrefix()))));
  }

  @Override
  public void afterEach(ExtensionContext context) {
    for (Vertx v : opened) {
      try {
        await(v.close());
      } catch (RuntimeException ignored) {
        // closed by the test, as a crash
      }
    }
    opened.clear();
  }
}
