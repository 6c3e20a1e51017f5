package dev.ratchet.verticles.clients;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Python client and its adapters type-check under {@code mypy --strict} against the pinned
 * frameworks (minutes the first time: mypy reads every framework's types; its cache then lives in
 * the test environment).
 */
class PythonTypingTest {

  @RegisterExtension
  static final PythonSuite SUITE = new PythonSuite();

  @Test
  void thePythonPackageTypeChecksUnderMypyStrict() throws Exception {
    SUITE.pytest(12, "tests/test_typing.py");
  }
}
