package dev.ratchet.verticles.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ratchet.runtime.testing.TestRedis;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Runs the TypeScript client package's test suite against a real Ratchet over HTTP: its tests
 * submit turns, wait for approvals decided with an approver token, replay a crashed agent process
 * and drive the framework adapters with the frameworks' own test models.
 */
class TypeScriptClientTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  static ClientsRuntime runtime;

  @BeforeAll
  static void start() {
    runtime = new ClientsRuntime(REDIS);
  }

  @AfterAll
  static void stop() {
    runtime.close();
  }

  @Test
  void theTypeScriptClientAndItsAdaptersPassTheirTestsAgainstARealRatchet() throws Exception {
    assumeTrue(ClientSuites.onPath("node") && ClientSuites.onPath("npm"),
        "node and npm are needed for the TypeScript client's tests");
    Path dir = ClientSuites.clients().resolve("typescript");
    Path log = Files.createTempFile("ratchet-ts-client", ".log");
    if (!Files.isDirectory(dir.resolve("node_modules"))) {
      int installed = ClientSuites.run(dir, List.of("npm", "ci", "--no-audit", "--no-fund"), runtime.environment(),
          log, 10);
      assertThat(installed).as(Files.readString(log)).isZero();
    }
    int exit = ClientSuites.run(dir, List.of("node", "--test", "--test-concurrency=1", "tests/"),
        runtime.environment(), log, 10);
    String output = Files.readString(log, StandardCharsets.UTF_8);
    System.out.println(output);
    assertThat(exit).as(output).isZero();
    assertThat(output).contains("# fail 0").doesNotContain("# pass 0");
  }
}
