package dev.ratchet.verticles.clients;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Runs the Python client's own tests against a real Ratchet over HTTP: turns, approvals, typed
 * errors, a crashed agent process replayed, and mypy --strict on the package.
 */
class PythonClientTest {

  @RegisterExtension
  static final PythonSuite SUITE = new PythonSuite();

  @Test
  void thePythonClientPassesItsTestsAgainstARealRatchet() throws Exception {
    SUITE.pytest(8, "tests/test_client.py", "tests/test_typing.py", "tests/test_docs.py");
  }
}
