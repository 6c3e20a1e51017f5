package dev.ratchet.server.cluster;

import dev.ratchet.host.ChildEnvironment;
import dev.ratchet.host.FreePorts;
import dev.ratchet.server.Main;
import io.vertx.core.json.JsonObject;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * One cluster member as a child process, for the takeover benchmark and the cluster tests:
 * {@code ratchet run --cluster --no-demo} in its own JVM, in a directory holding the shared
 * configuration, with its HTTP API and its Hazelcast port of its own. Its environment is the
 * given variables alone (plus a minimal base), never the parent's.
 */
public final class MemberProcess implements AutoCloseable {

  public final String name;
  public final int httpPort;
  public final int clusterPort;
  private final Path dir;
  private Process process;
  private final List<String> output = new CopyOnWriteArrayList<>();
  private final HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager())
      .connectTimeout(Duration.ofSeconds(5)).build();

  public MemberProcess(String name, Path dir) throws IOException {
    this.name = name;
    this.dir = dir;
    this.httpPort = FreePorts.next();
    this.clusterPort = FreePorts.next();
  }

  public void start(Map<String, String> env) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp",
        System.getProperty("java.class.path"), Main.class.getName(), "run", "--cluster", "--no-demo")
        .directory(dir.toFile()).redirectErrorStream(true);
    ChildEnvironment.minimal(pb).environment().putAll(env);
    pb.environment().put("RATCHET_HTTP_PORT", String.valueOf(httpPort));
    pb.environment().put("RATCHET_CLUSTER_PORT", String.valueOf(clusterPort));
    pb.environment().put("RATCHET_DATA_DIR", dir.resolve("data-" + name).toString());
    process = pb.start();
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          output.add(line);
        }
      } catch (IOException e) {
        // the member ended
      }
    }, "ratchet-member-" + name);
    reader.setDaemon(true);
    reader.start();
  }

  public boolean running() {
    return output.stream().anyMatch(l -> l.startsWith("Ratchet is running"));
  }

  public boolean alive() {
    return process != null && process.isAlive();
  }

  /** SIGKILL: no shutdown hook runs and the cluster hears nothing; the others notice the silence. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  /**
   * SIGSTOP: the process stops where it is and its connections stay open, as a machine cut off
   * from the network looks to the others; only the missing heartbeats tell.
   */
  public void freeze() throws IOException, InterruptedException {
    new ProcessBuilder("kill", "-STOP", String.valueOf(process.pid())).start().waitFor(10, TimeUnit.SECONDS);
  }

  /**
   * SIGTERM, as a service manager stops a member: its shutdown hook runs, and a member of a cluster
   * hands its sessions over before it leaves. Answers the exit code, or -1 when it did not end within
   * {@code seconds}.
   */
  public int terminate(int seconds) throws IOException, InterruptedException {
    // not Process.destroy(), which closes the pipe the member's last words come through
    new ProcessBuilder("kill", "-TERM", String.valueOf(process.pid())).start().waitFor(10, TimeUnit.SECONDS);
    return process.waitFor(seconds, TimeUnit.SECONDS) ? process.exitValue() : -1;
  }

  public String output() {
    return name + " said:\n" + String.join("\n", output);
  }

  public HttpResponse<String> send(String method, String path, JsonObject body, Map<String, String> headers) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + path))
        .timeout(Duration.ofSeconds(30)).method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body.encode()));
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    headers.forEach(b::header);
    try {
      return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException(name + ": " + method + " " + path + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() throws Exception {
    if (process != null && process.isAlive()) {
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }
}
