package dev.ratchet.verticles.clients;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Python client installed as users install it: its wheel, with the documented command, into a
 * fresh environment outside the repository where pip resolves LangGraph; the example then runs
 * against a real Ratchet.
 */
class PythonInstallTest {

  @RegisterExtension
  static final PythonSuite SUITE = new PythonSuite();

  @Test
  void theWheelInstalledWithTheDocumentedCommandRunsTheLangGraphExample() throws Exception {
    SUITE.pytest(8, "tests/test_install.py");
  }
}
