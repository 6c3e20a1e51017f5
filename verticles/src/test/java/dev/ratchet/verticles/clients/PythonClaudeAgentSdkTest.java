package dev.ratchet.verticles.clients;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Claude Agent SDK with Ratchet as its MCP server, against a real Ratchet: the SDK's bundled
 * Claude Code CLI from the package registry, its model a local server speaking Anthropic's Messages
 * API; a read and a write, a rejection's reason, an approval that takes a while, and an agent
 * process killed between two writes and replayed, which runs each write once.
 */
class PythonClaudeAgentSdkTest {

  @RegisterExtension
  static final PythonSuite SUITE = new PythonSuite();

  @Test
  void theClaudeAgentSdkReachesRatchetAsItsMcpServer() throws Exception {
    SUITE.pytest(5, "tests/test_claude_agent_sdk.py");
  }
}
