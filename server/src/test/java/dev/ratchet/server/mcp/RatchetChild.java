package dev.ratchet.server.mcp;

import dev.ratchet.server.Main;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * {@code ratchet run} in its own JVM, as a user starts it: the embedded Redis in {@code dir}, the
 * demo agent, the admin password and the demo's agent token given, plus any connection variables.
 * Started again on the same directory and ports, it finds the journal the last one left.
 */
final class RatchetChild implements AutoCloseable {

  static final String TOKEN = "rt_mcp-child-token-0123456789";
  static final String PASSWORD = "mcp-child-password";

  private final Path dir;
  private final Map<String, String> extraEnv;
  final int httpPort;
  private final int redisPort;
  private final int shopPort;
  private Process process;
  private final List<String> output = new CopyOnWriteArrayList<>();

  RatchetChild(Path dir, Map<String, String> extraEnv) throws IOException {
    this.dir = dir;
    this.extraEnv = extraEnv;
    this.httpPort = freePort();
    this.redisPort = freePort();
    this.shopPort = freePort();
    // the demo as shipped: its agent file and the shop's OpenAPI document, where run looks for them
    Path root = Path.of(System.getProperty("user.dir")).getParent();
    for (String file : List.of("conf/agents/demo.yaml", "conf/specs/shop.json")) {
      Files.createDirectories(dir.resolve(file).getParent());
      Files.copy(root.resolve(file), dir.resolve(file), StandardCopyOption.REPLACE_EXISTING);
    }
  }

  String baseUrl() {
    return "http://127.0.0.1:" + httpPort;
  }

  RatchetChild start() throws Exception {
    output.clear();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-Xmx384m", "-cp", System.getProperty("java.class.path"),
        Main.class.getName(), "run").directory(dir.toFile()).redirectErrorStream(true);
    Map<String, String> env = pb.environment();
    List.of("RATCHET_MODEL", "RATCHET_MODEL_BASE_URL", "OPENAI_API_KEY", "RATCHET_REDIS_URL", "RATCHET_NODE_ID")
        .forEach(env::remove);
    env.entrySet().removeIf(e -> e.getKey().startsWith("RATCHET_CONNECTION_"));
    env.put("RATCHET_DATA_DIR", dir.resolve("data").toString());
    env.put("RATCHET_HTTP_PORT", String.valueOf(httpPort));
    env.put("RATCHET_REDIS_PORT", String.valueOf(redisPort));
    // the demo shop's default port is fixed; the same one for each start of this child
    env.put("RATCHET_SHOP_PORT", String.valueOf(shopPort));
    env.put("RATCHET_CONNECTIONS_FILE", dir.resolve("no-connections.json").toString());
    env.put("RATCHET_ADMIN_PASSWORD", PASSWORD);
    env.put("RATCHET_DEMO_TOKEN", TOKEN);
    env.putAll(extraEnv);
    process = pb.start();
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          output.add(line);
        }
      } catch (IOException e) {
        // the child ended
      }
    }, "ratchet-child-output");
    reader.setDaemon(true);
    reader.start();
    long deadline = System.currentTimeMillis() + 120_000;
    while (output.stream().noneMatch(l -> l.startsWith("Ratchet is running"))) {
      if (!process.isAlive()) {
        throw new AssertionError("ratchet run exited with " + process.exitValue() + ": " + output);
      }
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("ratchet run did not start in 120 s: " + output);
      }
      Thread.sleep(100);
    }
    return this;
  }

  /** SIGKILL: no shutdown hook runs, nothing is flushed or closed. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  List<String> output() {
    return output;
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

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
