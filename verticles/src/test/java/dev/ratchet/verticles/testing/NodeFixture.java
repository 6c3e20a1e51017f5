package dev.ratchet.verticles.testing;

import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import static dev.ratchet.runtime.testing.Await.await;

/**
 * What tests of one node share: before each test a {@link RatchetNode} of its own, in a Vert.x of its
 * own, on the {@link TestRedis} the test class registers (under its key prefix); both closed after it.
 */
public abstract class NodeFixture {

  protected Vertx vertx;
  protected RatchetNode ratchet;

  /** The node's options: the Redis's, and whatever a test class adds to them. */
  protected RatchetOptions options(RatchetOptions onRedis) {
    return onRedis;
  }

  @BeforeEach
  protected void deployNode(TestRedis redis) {
    vertx = Vertx.vertx();
    ratchet = await(RatchetNode.deploy(vertx,
        options(RatchetOptions.create().redisUrl(redis.url()).keyPrefix(redis.keyPrefix()))));
  }

  @AfterEach
  protected void closeNode() {
    await(ratchet.close());
    await(vertx.close());
  }
}
