package dev.ratchet.verticles.clients;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The LangGraph adapter against a real Ratchet, with LangGraph from the package registry driven by
 * langchain-core's fake chat model: one AIMessage as one turn, a crashed agent process replayed, a
 * rejection's reason, an approval longer than the client's request timeout.
 */
class PythonLangGraphTest {

  @RegisterExtension
  static final PythonSuite SUITE = new PythonSuite();

  @Test
  void theLangGraphAdapterPassesItsTestsAgainstARealRatchet() throws Exception {
    SUITE.pytest(5, "tests/test_langgraph.py");
  }
}
