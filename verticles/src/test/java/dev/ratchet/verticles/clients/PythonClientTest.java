package dev.ratchet.verticles.clients;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Runs the Python client's own tests against a real Ratchet over HTTP: turns, approvals, typed
 * errors, a crashed agent process replayed, and the docs' examples checked against the tested files.
 */
class PythonClientTest {

  @RegisterExtension
  static final PythonSuite SUITE = new PythonSuite();

  @Test
  void thePythonClientPassesItsTestsAgainstARealRatchet() throws Exception {
    SUITE.pytest(5, "tests/test_client.py", "tests/test_docs.py");
  }
}
