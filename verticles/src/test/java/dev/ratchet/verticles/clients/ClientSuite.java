package dev.ratchet.verticles.clients;

import dev.ratchet.verticles.http.RuntimeServer;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client package's own test suite (clients/ at the repository's root) run as a child process
 * against a real Ratchet ({@link ClientsRuntime}) on a Redis of its own, both started before the
 * test class and stopped after it.
 */
final class ClientSuite extends RuntimeServer<ClientsRuntime> {

  ClientSuite() {
    super(ClientsRuntime::new);
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

  /**
   * Installs the TypeScript package's pinned dependencies ({@code npm ci}) unless they are there;
   * test classes in other forks wait for the one installing (a lock file in target/).
   */
  static Path typeScriptPackage(Path log) throws Exception {
    Path dir = clients().resolve("typescript");
    Path lock = Path.of("target", "typescript-npm-ci.lock").toAbsolutePath();
    Files.createDirectories(lock.getParent());
    try (FileChannel channel = FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
         FileLock held = channel.lock()) {
      if (!Files.isDirectory(dir.resolve("node_modules"))) {
        Process npm = new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund").directory(dir.toFile())
            .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!npm.waitFor(10, TimeUnit.MINUTES)) {
          npm.destroyForcibly();
          throw new AssertionError("npm ci did not finish in 10 min:\n" + Files.readString(log, StandardCharsets.UTF_8));
        }
        if (npm.exitValue() != 0) {
          throw new AssertionError("npm ci failed:\n" + Files.readString(log, StandardCharsets.UTF_8));
        }
      }
    }
    return dir;
  }

  /**
   * Runs these test files of the TypeScript package with {@code node --test} against this class's
   * Ratchet, and checks that they all passed; the output is printed.
   */
  void runTypeScriptTests(List<String> files) throws Exception {
    Path log = Files.createTempFile("ratchet-ts-client", ".log");
    Path dir = typeScriptPackage(log);
    List<String> command = new ArrayList<>(List.of("node", "--test", "--test-concurrency=1"));
    files.forEach(f -> command.add("tests/" + f));
    int exit = run(dir, command, log, 10);
    String output = Files.readString(log, StandardCharsets.UTF_8);
    System.out.println(output);
    assertThat(exit).as(output).isZero();
    assertThat(output).contains("# fail 0").doesNotContain("# pass 0");
  }

  /** Runs {@code command} in {@code dir}, told where the Ratchet is, its output in {@code log}; its exit code. */
  int run(Path dir, List<String> command, Path log, long minutes) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    builder.environment().putAll(runtime().environment());
    // plain output: a failure message quotes the log, and a build log shows colour codes as garbage
    builder.environment().put("NO_COLOR", "1");
    Process process = builder.start();
    if (!process.waitFor(minutes, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError(String.join(" ", command) + " did not finish in " + minutes + " min:\n"
          + Files.readString(log, StandardCharsets.UTF_8));
    }
    return process.exitValue();
  }
}
