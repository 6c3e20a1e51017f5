package dev.ratchet.verticles.clients;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Pydantic AI toolset against a real Ratchet, with Pydantic AI from the package registry driven
 * by its own TestModel and FunctionModel: one response as one turn, a crashed agent process
 * replayed, a rejection's reason, an approval longer than the client's request timeout.
 */
class PythonPydanticAiTest {

  @RegisterExtension
  static final PythonSuite SUITE = new PythonSuite();

  @Test
  void thePydanticAiToolsetPassesItsTestsAgainstARealRatchet() throws Exception {
    SUITE.pytest(5, "tests/test_pydantic_ai.py");
  }
}
