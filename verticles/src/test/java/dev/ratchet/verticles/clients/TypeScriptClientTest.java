package dev.ratchet.verticles.clients;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Runs the TypeScript client package's client and adapter tests against a real Ratchet over HTTP:
 * its tests submit turns, wait for approvals decided with an approver token, go through a proxy's
 * error pages, replay crashed agent processes of each framework and drive the framework adapters
 * with the frameworks' own test models. {@link TypeScriptPackageTest} runs the packaging tests.
 */
class TypeScriptClientTest {

  @RegisterExtension
  static final ClientSuite SUITE = new ClientSuite();

  @Test
  void theTypeScriptClientAndItsAdaptersPassTheirTestsAgainstARealRatchet() throws Exception {
    assumeTrue(ClientSuite.onPath("node") && ClientSuite.onPath("npm"),
        "node and npm are needed for the TypeScript client's tests");
    SUITE.runTypeScriptTests(List.of("client.test.js", "client-edges.test.js", "ai-sdk.test.js", "mastra.test.js",
        "openai-agents.test.js", "mcp-openai-agents.test.js", "mcp-sdk.test.js", "replay.test.js"));
  }
}
