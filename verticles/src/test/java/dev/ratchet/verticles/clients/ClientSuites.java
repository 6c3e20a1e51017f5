package dev.ratchet.verticles.clients;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Running a client package's own test suite (clients/ at the repository's root) as a child process. */
final class ClientSuites {

  private ClientSuites() {
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

  /** Runs {@code command} in {@code dir} with {@code environment} added, its output in {@code log}; its exit code. */
  static int run(Path dir, List<String> command, Map<String, String> environment, Path log, long minutes)
      throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    builder.environment().putAll(environment);
    Process process = builder.start();
    if (!process.waitFor(minutes, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError(String.join(" ", command) + " did not finish in " + minutes + " min:\n"
          + Files.readString(log, StandardCharsets.UTF_8));
    }
    return process.exitValue();
  }
}
