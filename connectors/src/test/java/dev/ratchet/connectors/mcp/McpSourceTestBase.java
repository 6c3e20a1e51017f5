package dev.ratchet.connectors.mcp;

import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import static dev.ratchet.runtime.testing.Await.await;

/** A Vert.x per test and the MCP source a test opens on it, both closed after the test. */
abstract class McpSourceTestBase {

  protected Vertx vertx;
  protected McpToolSource source;

  @BeforeEach
  void openVertx() {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void closeSourceAndVertx() {
    if (source != null) {
      await(source.close());
    }
    await(vertx.close());
  }
}
