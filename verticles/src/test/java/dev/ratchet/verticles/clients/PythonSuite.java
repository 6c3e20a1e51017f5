package dev.ratchet.verticles.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.ratchet.runtime.testing.TestRedis;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs test files of the Python client ({@code clients/python/tests}) with pytest from the project's
 * {@link PythonVenv} against a real Ratchet ({@link ClientsRuntime}) on a Redis of the class's own.
 * The tests can restart that Ratchet under a waiting client: {@code POST $RATCHET_CONTROL_URL/restart?downMillis=N}
 * stops it, keeps it down for N ms and starts it again on the same port and journal.
 */
final class PythonSuite implements BeforeAllCallback, AfterAllCallback {

  private final TestRedis redis = new TestRedis();
  private final Map<String, AtomicInteger> writes = new ConcurrentHashMap<>();
  private volatile ClientsRuntime runtime;
  private HttpServer control;
  private Path python;

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    assumeTrue(ClientSuite.onPath("python3"), "python3 is needed for the Python client's tests");
    python = PythonVenv.python();
    redis.beforeAll(context);
    runtime = new ClientsRuntime(redis, 0, writes);
    control = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    control.createContext("/restart", this::restart);
    control.start();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    try {
      if (control != null) {
        control.stop(0);
      }
      if (runtime != null) {
        runtime.close();
      }
    } finally {
      redis.afterAll(context);
    }
  }

  private synchronized void restart(HttpExchange exchange) throws IOException {
    try (exchange) {
      String query = exchange.getRequestURI().getQuery();
      long down = query != null && query.startsWith("downMillis=") ? Long.parseLong(query.substring(11)) : 0;
      int port = URI.create(runtime.baseUrl()).getPort();
      runtime.close();
      Thread.sleep(down);
      runtime = new ClientsRuntime(redis, port, writes);
      exchange.sendResponseHeaders(204, -1);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      exchange.sendResponseHeaders(500, -1);
    }
  }

  /** Runs pytest on {@code tests} (paths under clients/python) and asserts that they all pass. */
  void pytest(long minutes, String... tests) throws Exception {
    Path dir = PythonVenv.project();
    List<String> command = new ArrayList<>(List.of(python.toString(), "-m", "pytest", "-q", "--color=no", "-p", "no:cacheprovider",
        "-o", "console_output_style=classic", "--durations=5"));
    command.addAll(List.of(tests));
    Map<String, String> environment = new HashMap<>(runtime.environment());
    environment.put("RATCHET_CONTROL_URL", "http://127.0.0.1:" + control.getAddress().getPort());
    environment.put("PYTHONDONTWRITEBYTECODE", "1");
    environment.put("NO_COLOR", "1");
    Path log = Files.createTempFile("ratchet-pytest", ".log");
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    builder.environment().putAll(environment);
    Process process = builder.start();
    boolean ended = process.waitFor(minutes, TimeUnit.MINUTES);
    if (!ended) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    Files.deleteIfExists(log);
    System.out.println(output);
    assertThat(ended).as("pytest did not finish in %d min:%n%s", minutes, output).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    assertThat(output).containsPattern("\\d+ passed").doesNotContainPattern("\\d+ (failed|skipped|error)");
  }
}
