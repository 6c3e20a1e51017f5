package dev.ratchet.server.chaos;

import dev.ratchet.host.ChildEnvironment;
import io.vertx.core.json.JsonObject;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A {@link ChaosNode} in a child JVM of its own, for the chaos run and the cluster bench: its stderr
 * goes to a log file, each line it prints to a reader thread of its own, and commands to its stdin
 * as JSON lines.
 */
final class NodeProcess {

  private final Process process;

  /** Starts the node with these JVM options and {@link ChaosNode} arguments; {@code onLine} gets what it prints. */
  NodeProcess(List<String> jvmOptions, List<String> args, Path logFile, String readerName, Consumer<String> onLine)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), ChaosNode.class.getName()));
    command.addAll(args);
    // a minimal environment: the node needs nothing of this JVM's, credentials least of all
    process = ChildEnvironment.minimal(new ProcessBuilder(command))
        .redirectError(ProcessBuilder.Redirect.appendTo(logFile.toFile())).start();
    Thread reader = new Thread(() -> read(onLine), readerName);
    reader.setDaemon(true);
    reader.start();
  }

  private void read(Consumer<String> onLine) {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
        StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        onLine.accept(line);
      }
    } catch (IOException | RuntimeException e) {
      // killed
    }
  }

  synchronized void send(JsonObject command) throws IOException {
    OutputStream out = process.getOutputStream();
    out.write((command.encode() + "\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  long pid() {
    return process.pid();
  }

  /** SIGKILL: no shutdown hook runs, nothing is flushed. */
  void kill() throws InterruptedException {
    if (process.isAlive()) {
      process.destroyForcibly();
      process.waitFor(20, TimeUnit.SECONDS);
    }
  }
}
