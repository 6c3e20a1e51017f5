package dev.ratchet.verticles.clients;

import dev.ratchet.verticles.http.RuntimeServer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

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
