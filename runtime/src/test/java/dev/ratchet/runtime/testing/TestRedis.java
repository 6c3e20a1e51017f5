package dev.ratchet.runtime.testing;

import dev.ratchet.embedded.RedisServerProcess;
import dev.ratchet.runtime.journal.JournalOptions;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.runtime.journal.SessionJournal;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.UUID;

/**
 * Gives a test class a real Redis: {@code RATCHET_TEST_REDIS_URL} when set, otherwise a
 * {@code redis-server} started for the class on a free port. Tests isolate themselves with the
 * unique {@link #keyPrefix()}, never by flushing a shared server.
 */
public final class TestRedis implements BeforeAllCallback, AfterAllCallback, JournalStore {

  private RedisServerProcess server;
  private String url;
  private final String keyPrefix = "rt-" + UUID.randomUUID().toString().substring(0, 8);
  private final boolean alwaysOwn;

  public TestRedis() {
    this(false);
  }

  private TestRedis(boolean alwaysOwn) {
    this.alwaysOwn = alwaysOwn;
  }

  /** A server of the test class's own even when a shared one is configured: for tests that kill or flush it. */
  public static TestRedis withOwnServer() {
    return new TestRedis(true);
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    String shared = alwaysOwn ? null : System.getenv("RATCHET_TEST_REDIS_URL");
    if (shared != null && !shared.isBlank()) {
      url = shared;
    } else {
      server = RedisServerProcess.startTemporary("ratchet-test-redis", "everysec");
      url = server.url();
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (server != null) {
      server.close();
    }
  }

  public String url() {
    return url;
  }

  /** A key prefix no other test class uses. */
  public String keyPrefix() {
    return keyPrefix;
  }

  /** A Redis journal on this server under this class's key prefix. */
  @Override
  public SessionJournal open(Vertx vertx) {
    return Await.await(RedisJournal.open(vertx, JournalOptions.of(url).withKeyPrefix(keyPrefix)));
  }

  /** The server this extension started, or null when the tests use a shared one. */
  public RedisServerProcess ownServer() {
    return server;
  }
}
