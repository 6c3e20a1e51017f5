package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.journal.JournalPorts;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.MovableClock;
import dev.ratchet.runtime.RatchetClock;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.ToolSource;
import dev.ratchet.runtime.journal.InMemoryJournal;
import dev.ratchet.runtime.journal.JournalOptions;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.runtime.journal.SessionJournal;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.ratchet.runtime.testing.Await.await;

/**
 * A journal and a session engine over it, for one test: the in-memory journal for tests of the
 * engine's rules, a real journal on real Redis for tests of what Redis holds. Registered as an
 * extension on an instance field, it closes after each test.
 */
final class EngineHarness implements AutoCloseable, AfterEachCallback {

  final Vertx vertx = Vertx.vertx();
  final SessionJournal journal;
  /** Where the journal and the engines read the time and set their timers. */
  final RatchetClock clock;
  final List<JsonObject> events = new CopyOnWriteArrayList<>();
  final String sessionId = "s-" + UUID.randomUUID();

  /** On the in-memory journal. */
  EngineHarness() {
    clock = RatchetClock.system(vertx);
    journal = InMemoryJournal.create(vertx, clock);
  }

  /** On the in-memory journal, it and the engines on a clock standing at {@code start} until the test moves it. */
  EngineHarness(Instant start) {
    clock = MovableClock.startingAt(vertx, start);
    journal = InMemoryJournal.create(vertx, clock);
  }

  /** On a real journal on {@code redis}. */
  EngineHarness(TestRedis redis) {
    clock = RatchetClock.system(vertx);
    journal = await(RedisJournal.open(vertx, JournalOptions.of(redis.url()).withKeyPrefix(redis.keyPrefix())));
  }

  /** The clock the test moves, for a harness made with a start instant. */
  MovableClock movable() {
    return (MovableClock) clock;
  }

  /** The Redis journal, for a harness made with a {@link TestRedis}. */
  RedisJournal redis() {
    return (RedisJournal) journal;
  }

  SessionEngine engine(ToolSource source, EngineOptions options) {
    return engine(AgentDefinition.builder("test-agent").toolSource(source).build(), options);
  }

  SessionEngine engine(AgentDefinition agent, EngineOptions options) {
    ToolCatalog catalog = await(ToolCatalog.resolve(vertx, agent));
    SessionEngine engine = new SessionEngine(vertx, journal, sessionId, catalog, options, events::add, clock);
    await(engine.start("test-node"));
    return engine;
  }

  List<ApprovalRequest> pendingFor(int expected) {
    return pending(journal, sessionId, expected);
  }

  /** The session's pending approvals once there are {@code expected} of them, or after 10 s those there are. */
  static List<ApprovalRequest> pending(SessionJournal journal, String sessionId, int expected) {
    long deadline = System.currentTimeMillis() + 10_000;
    while (true) {
      List<ApprovalRequest> pending = await(JournalPorts.queries(journal).pendingApprovals(1000)).stream()
          .filter(r -> r.sessionId().equals(sessionId)).toList();
      if (pending.size() >= expected || System.currentTimeMillis() > deadline) {
        return pending;
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    close();
  }

  @Override
  public void close() {
    journal.close();
    await(vertx.close());
  }
}
