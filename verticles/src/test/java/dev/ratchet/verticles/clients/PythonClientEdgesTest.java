package dev.ratchet.verticles.clients;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Python client at the edges: a proxy's HTML error pages, Ratchet restarted while a turn waits,
 * and the wheel installed into a fresh environment the way users install it.
 */
class PythonClientEdgesTest {

  @RegisterExtension
  static final PythonSuite SUITE = new PythonSuite();

  @Test
  void thePythonClientWaitsOutProxiesAndRestartsAndInstallsFromItsWheel() throws Exception {
    SUITE.pytest(6, "tests/test_edges.py", "tests/test_install.py");
  }
}
