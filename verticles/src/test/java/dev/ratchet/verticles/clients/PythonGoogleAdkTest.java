package dev.ratchet.verticles.clients;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Google ADK toolset against a real Ratchet, with ADK from the package registry driven by a
 * scripted BaseLlm: one response as one turn, calls without ids never merged, a crashed agent process
 * replayed, a rejection's reason, an approval longer than the client's request timeout.
 */
class PythonGoogleAdkTest {

  @RegisterExtension
  static final PythonSuite SUITE = new PythonSuite();

  @Test
  void theGoogleAdkToolsetPassesItsTestsAgainstARealRatchet() throws Exception {
    SUITE.pytest(5, "tests/test_google_adk.py");
  }
}
