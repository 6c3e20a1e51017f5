package dev.ratchet.verticles.clients;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Python client at the edges: a proxy's HTML error pages, and Ratchet restarted while a turn
 * waits or is submitted.
 */
class PythonClientEdgesTest {

  @RegisterExtension
  static final PythonSuite SUITE = new PythonSuite();

  @Test
  void thePythonClientWaitsOutProxiesAndRestarts() throws Exception {
    SUITE.pytest(5, "tests/test_edges.py");
  }
}
