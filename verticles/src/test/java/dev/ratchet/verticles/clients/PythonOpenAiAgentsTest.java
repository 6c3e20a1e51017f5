package dev.ratchet.verticles.clients;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The OpenAI Agents SDK adapter against a real Ratchet, with the SDK from the package registry driven
 * by a scripted Model: function tools and Ratchet's MCP endpoint as the SDK's MCPServerStreamableHttp,
 * a crashed agent process replayed, a rejection's reason, approvals longer than the SDK's timeouts.
 */
class PythonOpenAiAgentsTest {

  @RegisterExtension
  static final PythonSuite SUITE = new PythonSuite();

  @Test
  void theOpenAiAgentsAdapterPassesItsTestsAgainstARealRatchet() throws Exception {
    SUITE.pytest(5, "tests/test_openai_agents.py");
  }
}
