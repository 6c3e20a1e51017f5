package dev.ratchet.verticles.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ratchet.runtime.testing.TestRedis;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Runs the test suites of the Python and TypeScript client packages (clients/ at the repository's
 * root) against a real Ratchet over HTTP: each package's tests submit turns, wait for approvals
 * decided with an approver token, replay a crashed agent process and drive the framework adapters
 * with the frameworks' own test models.
 */
class ClientPackagesTest {

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

  static Path clients() {
    return Path.of("..", "clients").toAbsolutePath().normalize();
  }

  static boolean onPath(String command) {
    try {
      return new ProcessBuilder(command, "--version").redirectErrorStream(true).start().waitFor(30, TimeUnit.SECONDS);
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }

  static int run(Path dir, List<String> command, Path log, long minutes) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    builder.environment().putAll(runtime.environment());
    Process process = builder.start();
    if (!process.waitFor(minutes, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError(String.join(" ", command) + " did not finish in " + minutes + " min:\n"
          + Files.readString(log, StandardCharsets.UTF_8));
    }
    return process.exitValue();
  }

  @Test
  void theTypeScriptClientAndItsAdaptersPassTheirTestsAgainstARealRatchet() throws Exception {
    assumeTrue(onPath("node") && onPath("npm"), "node and npm are needed for the TypeScript client's tests");
    Path dir = clients().resolve("typescript");
    Path log = Files.createTempFile("ratchet-ts-client", ".log");
    if (!Files.isDirectory(dir.resolve("node_modules"))) {
      int installed = run(dir, List.of("npm", "ci", "--no-audit", "--no-fund"), log, 10);
      assertThat(installed).as(Files.readString(log)).isZero();
    }
    int exit = run(dir, List.of("node", "--test", "--test-concurrency=1", "tests/"), log, 10);
    String output = Files.readString(log, StandardCharsets.UTF_8);
    System.out.println(output);
    assertThat(exit).as(output).isZero();
    assertThat(output).contains("# fail 0").doesNotContain("# pass 0");
  }

  @Test
  void thePythonClientPassesItsTestsAgainstARealRatchet() throws Exception {
    assumeTrue(onPath("python3"), "python3 is needed for the Python client's tests");
    Path dir = clients().resolve("python");
    Path log = Files.createTempFile("ratchet-py-client", ".log");
    int exit = run(dir, List.of("python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"), log, 10);
    String output = Files.readString(log, StandardCharsets.UTF_8);
    System.out.println(output);
    assertThat(exit).as(output).isZero();
    assertThat(output).containsPattern("\\d+ passed").doesNotContain("failed");
  }
}
