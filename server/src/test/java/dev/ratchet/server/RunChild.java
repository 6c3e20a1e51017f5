package dev.ratchet.server;

import dev.ratchet.host.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * {@code ratchet run} in its own JVM, as a user starts it: the embedded Redis in the directory it
 * runs in, the admin password and the demo's agent token given, no Ratchet setting or model key from
 * the test's own environment, plus whatever variables the test adds. Its ports are chosen once, so a
 * child started again on the same directory finds the journal and the shop the last one left.
 */
public final class RunChild implements AutoCloseable {

  /** The line {@code run} prints once it serves. */
  public static final String RUNNING = "Ratchet is running";

  private final String token;
  private final String password;
  private final int httpPort = port();
  private final int redisPort = port();
  private final int shopPort = port();
  private final Map<String, String> extraEnv = new LinkedHashMap<>();
  private final List<String> output = new CopyOnWriteArrayList<>();
  private final List<String> launcher = new java.util.ArrayList<>();
  private Process process;

  public RunChild(String token, String password) {
    this.token = token;
    this.password = password;
  }

  /** Copies the demo as shipped, its agent file and the shop's OpenAPI document, to where run looks for them. */
  public static void copyDemo(Path dir) throws IOException {
    Path root = Path.of(System.getProperty("user.dir")).getParent();
    for (String file : List.of("conf/agents/demo.yaml", "conf/specs/shop.json")) {
      Files.createDirectories(dir.resolve(file).getParent());
      Files.copy(root.resolve(file), dir.resolve(file), StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** A command that starts {@code run} from now on, such as {@code nohup}. */
  public RunChild under(String... command) {
    launcher.addAll(List.of(command));
    return this;
  }

  /** Variables for every start from now on, over the ones this class sets. */
  public RunChild env(Map<String, String> variables) {
    extraEnv.putAll(variables);
    return this;
  }

  /** Starts {@code run} in {@code dir} and waits until it prints a line starting with {@code readyPrefix}. */
  public RunChild start(Path dir, String readyPrefix, int seconds) throws IOException {
    output.clear();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new java.util.ArrayList<>(launcher);
    command.addAll(List.of(java, "-Xmx384m", "-cp", System.getProperty("java.class.path"), Main.class.getName(), "run"));
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
    Map<String, String> env = pb.environment();
    env.keySet().removeIf(k -> k.startsWith("RATCHET_") || k.equals("OPENAI_API_KEY"));
    env.put("RATCHET_DATA_DIR", dir.resolve("data").toString());
    env.put("RATCHET_HTTP_PORT", String.valueOf(httpPort));
    env.put("RATCHET_REDIS_PORT", String.valueOf(redisPort));
    // the demo shop's default port is fixed; this child's own one, the same for each start
    env.put("RATCHET_SHOP_PORT", String.valueOf(shopPort));
    env.put("RATCHET_CONNECTIONS_FILE", dir.resolve("no-connections.json").toString());
    env.put("RATCHET_ADMIN_PASSWORD", password);
    env.put("RATCHET_DEMO_TOKEN", token);
    env.putAll(extraEnv);
    process = pb.start();
    ChildOutput.collect(process, output, "ratchet-run-output");
    until(() -> line(readyPrefix) != null, seconds);
    return this;
  }

  public String token() {
    return token;
  }

  public String password() {
    return password;
  }

  public int httpPort() {
    return httpPort;
  }

  public int shopPort() {
    return shopPort;
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + httpPort;
  }

  /** What the child printed since its last start, a line an entry. */
  public List<String> output() {
    return output;
  }

  /** The first line starting with {@code prefix}, or null; fails when the child ended without printing one. */
  public String line(String prefix) {
    if (process != null && !process.isAlive() && output.stream().noneMatch(l -> l.startsWith(prefix))) {
      throw exited();
    }
    return output.stream().filter(l -> l.startsWith(prefix)).findFirst().orElse(null);
  }

  /**
   * Waits until the condition holds; an assertion or exception it throws counts as "not yet" until
   * the time is up, and then fails the test. Fails at once when the child has ended.
   */
  public void until(Supplier<Boolean> condition, int seconds) {
    long deadline = System.currentTimeMillis() + seconds * 1000L;
    while (true) {
      if (process != null && !process.isAlive()) {
        throw exited();
      }
      try {
        if (condition.get()) {
          return;
        }
      } catch (AssertionError | RuntimeException e) {
        if (System.currentTimeMillis() > deadline) {
          throw e;
        }
      }
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("condition not met within " + seconds + " s: " + String.join("\n", output));
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** SIGTERM, as Ctrl-C: the shutdown hooks run. True once the child has ended. */
  public boolean stop(int seconds) throws InterruptedException {
    process.destroy();
    return process.waitFor(seconds, TimeUnit.SECONDS);
  }

  /** SIGKILL: no shutdown hook runs, nothing is flushed or closed. True once the child has ended. */
  public boolean kill(int seconds) throws InterruptedException {
    process.destroyForcibly();
    return process.waitFor(seconds, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws InterruptedException {
    if (process != null && process.isAlive() && !stop(30)) {
      process.destroyForcibly();
    }
  }

  private AssertionError exited() {
    return new AssertionError("ratchet run exited with " + process.exitValue() + ": " + String.join("\n", output));
  }

  private static int port() {
    try {
      return FreePorts.next();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
