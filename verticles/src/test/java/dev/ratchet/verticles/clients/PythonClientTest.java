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
 * Runs the Python client package's test suite against a real Ratchet over HTTP: its tests submit
 * turns, wait for approvals decided with an approver token and replay a crashed agent process.
 */
class PythonClientTest {

  @RegisterExtension
  static final ClientSuite SUITE = new ClientSuite();

  @Test
  void thePythonClientPassesItsTestsAgainstARealRatchet() throws Exception {
    assumeTrue(ClientSuite.onPath("python3"), "python3 is needed for the Python client's tests");
    Path dir = ClientSuite.clients().resolve("python");
    Path log = Files.createTempFile("ratchet-py-client", ".log");
    int exit = SUITE.run(dir, List.of("python3", "-m", "pytest", "-q", "--color=no", "-p", "no:cacheprovider", "tests"), log, 10);
    String output = Files.readString(log, StandardCharsets.UTF_8);
    System.out.println(output);
    assertThat(exit).as(output).isZero();
    assertThat(output).containsPattern("\\d+ passed").doesNotContain("failed");
  }
}
