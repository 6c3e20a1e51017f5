package dev.ratchet.verticles.testing;

import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.function.UnaryOperator;

import static dev.ratchet.runtime.testing.Await.await;

/**
 * Gives each test a {@link RatchetNode} of its own on the class's {@link TestRedis}, under the class's
 * key prefix, in a Vert.x of its own; both are closed after the test (after its own {@code @AfterEach}).
 */
public final class TestNode implements BeforeEachCallback, AfterEachCallback {

  private final TestRedis redis;
  private final UnaryOperator<RatchetOptions> options;
  private Vertx vertx;
  private RatchetNode ratchet;

  public TestNode(TestRedis redis) {
    this(redis, UnaryOperator.identity());
  }

  /** A node whose options are the Redis's, then {@code options} applied to them. */
  public TestNode(TestRedis redis, UnaryOperator<RatchetOptions> options) {
    this.redis = redis;
    this.options = options;
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    vertx = Vertx.vertx();
    ratchet = await(RatchetNode.deploy(vertx,
        options.apply(RatchetOptions.create().redisUrl(redis.url()).keyPrefix(redis.keyPrefix()))));
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (ratchet != null) {
      await(ratchet.close());
    }
    await(vertx.close());
  }

  public Vertx vertx() {
    return vertx;
  }

  public RatchetNode ratchet() {
    return ratchet;
  }
}
