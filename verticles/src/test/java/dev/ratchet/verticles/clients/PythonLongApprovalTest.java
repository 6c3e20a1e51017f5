package dev.ratchet.verticles.clients;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A write approved after two minutes completes through the OpenAI Agents SDK's MCP client and
 * Ratchet's MCP endpoint: longer than the MCP SDKs' default request timeout, as approvals are.
 */
class PythonLongApprovalTest {

  @RegisterExtension
  static final PythonSuite SUITE = new PythonSuite();

  @Test
  void aWriteApprovedAfterTwoMinutesCompletesThroughTheMcpAdapter() throws Exception {
    SUITE.pytest(5, "tests/test_long_approval.py");
  }
}
