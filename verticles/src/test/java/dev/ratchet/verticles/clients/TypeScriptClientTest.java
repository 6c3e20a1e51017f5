package dev.ratchet.verticles.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Runs the TypeScript client package's test suite against a real Ratchet over HTTP: its tests
 * submit turns, wait for approvals decided with an approver token, replay a crashed agent process
 * and drive the framework adapters with the frameworks' own test models.
 */
class TypeScriptClientTest {

  @RegisterExtension
  static final ClientSuite SUITE = new ClientSuite();

  @Test
  void theTypeScriptClientAndItsAdaptersPassTheirTestsAgainstARealRatchet() throws Exception {
    assumeTrue(ClientSuite.onPath("node") && ClientSuite.onPath("npm"),
        "node and npm are needed for the TypeScript client's tests");
    Path dir = ClientSuite.clients().resolve("typescript");
    Path log = Files.createTempFile("ratchet-ts-client", ".log");
    if (!Files.isDirectory(dir.resolve("node_modules"))) {
      int installed = SUITE.run(dir, List.of("npm", "ci", "--no-audit", "--no-fund"), log, 10);
      assertThat(installed).as(Files.readString(log)).isZero();
    }
    int exit = SUITE.run(dir, List.of("node", "--test", "--test-concurrency=1", "tests/"), log, 10);
    String output = Files.readString(log, StandardCharsets.UTF_8);
    System.out.println(output);
    assertThat(exit).as(output).isZero();
    assertThat(output).contains("# fail 0").doesNotContain("# pass 0");
  }
}
