package dev.ratchet.server.cluster;

import dev.ratchet.host.FreePorts;
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

/** A {@link BusAgent} in a JVM of its own: commands go to its stdin, and every line it says to {@code heard}. */
final class BusAgentProcess implements AutoCloseable {

  private final Process process;
  private final OutputStream commands;

  /**
   * Starts the agent, joining {@code cluster}, and waits until it has joined; {@code tls}: its key
   * store, trust store and password, or none.
   */
  BusAgentProcess(ClusterRun cluster, List<String> heard, String... tls) throws IOException {
    String members = String.join(",", cluster.members.stream().map(m -> "127.0.0.1:" + m.clusterPort).toList());
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>(List.of(java, "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp",
        System.getProperty("java.class.path"), BusAgent.class.getName(), String.valueOf(FreePorts.next()), members));
    command.addAll(List.of(tls));
    process = new ProcessBuilder(command).redirectErrorStream(true).start();
    commands = process.getOutputStream();
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8))) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          heard.add(line);
        }
      } catch (IOException e) {
        // the agent ended
      }
    }, "bus-agent");
    reader.setDaemon(true);
    reader.start();
    cluster.until(() -> {
      if (!process.isAlive()) {
        throw new AssertionError("the agent ended: " + String.join("\n", heard));
      }
      return heard.contains("joined");
    }, 60);
  }

  void command(String line) throws IOException {
    commands.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    commands.flush();
  }

  /** How many of the lines an agent said start with {@code prefix}. */
  static long count(List<String> heard, String prefix) {
    return heard.stream().filter(l -> l.startsWith(prefix)).count();
  }

  /** The replies ({@code reply <json>} lines) an agent heard, once it heard as many as there are sessions. */
  static List<JsonObject> repliesFor(ClusterRun cluster, List<String> heard, List<String> sessions, int seconds) {
    cluster.until(() -> count(heard, "reply ") >= sessions.size(), seconds);
    return heard.stream().filter(l -> l.startsWith("reply "))
        .map(l -> new JsonObject(l.substring("reply ".length()))).toList();
  }

  @Override
  public void close() throws InterruptedException {
    process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
  }
}
