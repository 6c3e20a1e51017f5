package dev.ratchet.runtime.testing;

import io.vertx.core.json.JsonObject;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A main class of the test class path in a child JVM, to be killed with SIGKILL like a crashed
 * machine. It takes JSON commands a line each on stdin and writes JSON lines on stdout; other
 * lines are passed over, and stderr goes to the test's own.
 */
public class ChildJvm implements AutoCloseable {

  private final Process process;
  private final BlockingQueue<JsonObject> lines = new LinkedBlockingQueue<>();
  private final List<JsonObject> seen = new ArrayList<>();

  public ChildJvm(Class<?> main, String... args) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    // a short-lived JVM on shared cores: the client compiler and a serial GC start it faster
    List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-cp", System.getProperty("java.class.path"), main.getName()));
    command.addAll(List.of(args));
    process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          if (line.startsWith("{")) {
            lines.add(new JsonObject(line));
          }
        }
      } catch (IOException e) {
        // the child died
      }
    }, main.getSimpleName() + "-stdout");
    reader.setDaemon(true);
    reader.start();
  }

  public void send(JsonObject command) throws IOException {
    OutputStream out = process.getOutputStream();
    out.write((command.encode() + "\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  /** The first line (seen before or arriving within the timeout) that matches. */
  public JsonObject await(Predicate<JsonObject> match, int seconds) {
    for (JsonObject j : seen) {
      if (match.test(j)) {
        return j;
      }
    }
    long deadline = System.currentTimeMillis() + seconds * 1000L;
    try {
      while (System.currentTimeMillis() < deadline) {
        JsonObject j = lines.poll(100, TimeUnit.MILLISECONDS);
        if (j != null) {
          seen.add(j);
          if (match.test(j)) {
            return j;
          }
        }
        if (!process.isAlive() && lines.isEmpty()) {
          throw new AssertionError("the child JVM exited with " + process.exitValue() + "; saw " + seen);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    throw new AssertionError("no matching line from the child JVM within " + seconds + " s; saw " + seen);
  }

  /** The first line whose {@code event} is this one. */
  public JsonObject awaitEvent(String event, int seconds) {
    return await(j -> event.equals(j.getString("event")), seconds);
  }

  /** Sends a signal by name (STOP, CONT) to the child, as {@code kill -STOP <pid>} would. */
  public void signal(String name) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + name, String.valueOf(process.pid())).inheritIO().start();
    if (kill.waitFor() != 0) {
      throw new IOException("kill -" + name + " " + process.pid() + " failed");
    }
  }

  /** SIGKILL: no shutdown hook, no flush, like a power cut of the JVM; true once the child has ended. */
  public boolean kill() throws InterruptedException {
    process.destroyForcibly();
    return process.waitFor(20, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      kill();
    }
  }
}
