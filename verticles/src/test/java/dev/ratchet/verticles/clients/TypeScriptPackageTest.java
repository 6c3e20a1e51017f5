package dev.ratchet.verticles.clients;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Runs the TypeScript client package's packaging tests against a real Ratchet: the packed tarball
 * installed into an application outside the checkout with the frameworks resolved from it, the
 * examples of docs/CLIENTS.md type-checked with {@code tsc --strict} and run, and the type
 * declarations compiled as an application uses them.
 */
class TypeScriptPackageTest {

  @RegisterExtension
  static final ClientSuite SUITE = new ClientSuite();

  @Test
  void theTypeScriptPackageInstallsAsUsersInstallItAndItsDocumentedExamplesCompileAndRun() throws Exception {
    assumeTrue(ClientSuite.onPath("node") && ClientSuite.onPath("npm"),
        "node and npm are needed for the TypeScript client's tests");
    SUITE.runTypeScriptTests(List.of("packed.test.js", "docs-examples.test.js", "types.test.js"));
  }
}
