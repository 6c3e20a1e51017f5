package dev.ratchet.turns.testing;

import dev.ratchet.runtime.testing.TestRedis;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.UUID;

/**
 * Gives a test class the shop on real parts: a Redis ({@link TestRedis}), the shop's back end
 * ({@link ShopProvider}) and a Ratchet serving the shop agent ({@link EmbeddedShop}), started before
 * the class's own {@code @BeforeAll} methods and closed after its {@code @AfterAll} methods.
 */
public final class TestShop implements BeforeAllCallback, AfterAllCallback {

  private final TestRedis redis = new TestRedis();
  private final String nodeId;
  private ShopProvider provider;
  private EmbeddedShop shop;
  private final Deque<Runnable> closers = new ArrayDeque<>();

  /** {@code nodeId} names the Ratchet node in the journal, so that each test class has its own. */
  public TestShop(String nodeId) {
    this.nodeId = nodeId;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    redis.beforeAll(context);
    provider = new ShopProvider();
    shop = EmbeddedShop.start(redis.url(), redis.keyPrefix(), provider.url(), nodeId);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    try {
      while (!closers.isEmpty()) {
        closers.pop().run();
      }
      shop.close();
      provider.close();
    } finally {
      redis.afterAll(context);
    }
  }

  /** Runs {@code close} after the class's tests, before the shop stops; the last one registered first. */
  public void onClose(Runnable close) {
    closers.push(close);
  }

  public EmbeddedShop shop() {
    return shop;
  }

  public ShopProvider provider() {
    return provider;
  }

  /** A session id no other test uses, starting with {@code prefix}. */
  public static String newSession(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }
}
