package dev.ratchet.server.cli;

import dev.ratchet.host.FreePorts;
import dev.ratchet.server.ChildOutput;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code ratchet run} in child JVMs with the embedded Redis: killed with SIGKILL, the runtime leaves
 * its redis-server behind; the next start on the same data directory stops that one cleanly and
 * runs one of its own with the journal intact, another data directory runs side by side, and
 * someone else's server on the data directory stops {@code run} with one line naming it.
 */
class EmbeddedRedisRestartTest {

  private static final String TOKEN = "rt_restart-test-token-0123456789";

  @TempDir
  Path tmp;

  private final List<Runtime> runtimes = new ArrayList<>();
  private final List<Process> others = new ArrayList<>();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeEach
  void linux() {
    assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "finds redis-server processes in /proc");
  }

  @AfterEach
  void stop() throws Exception {
    for (Runtime r : runtimes) {
      r.stop();
    }
    for (Process p : others) {
      p.destroy();
      p.waitFor(10, TimeUnit.SECONDS);
    }
    // what a killed runtime may have left, should an assertion have failed first
    for (Path dir : List.of(tmp.resolve("one/redis"), tmp.resolve("two/redis"))) {
      if (Files.isDirectory(dir)) {
        for (long pid : redisServersOn(dir)) {
          ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
        }
      }
    }
  }

  @Test
  void killedWithSigkillTheNextStartStopsTheLeftServerAndRunsOneWithTheJournal() throws Exception {
    Path data = tmp.resolve("one");
    Runtime first = start(data);
    HttpResponse<String> sent = first.post("/api/sessions/kept-1/messages",
        new JsonObject().put("agent", "order-support").put("text", "cancel order 1002"));
    assertThat(sent.statusCode()).as(sent.body()).isEqualTo(202);
    until(() -> messages(first, "kept-1").encode().contains("cancel order 1002"), 30);
    List<Long> before = redisServersOn(data.resolve("redis"));
    assertThat(before).hasSize(1);

    first.kill();
    assertThat(ProcessHandle.of(before.get(0)).map(ProcessHandle::isAlive)).as("the server outlives the runtime")
        .contains(true);

    Runtime again = start(data);
    List<Long> after = redisServersOn(data.resolve("redis"));
    assertThat(after).hasSize(1).doesNotContain(before.get(0));
    assertThat(again.output).contains("Embedded Redis: stopped the redis-server (pid " + before.get(0)
        + ") that an earlier Ratchet left running on " + data.resolve("redis").toAbsolutePath()
        + "; the journal is kept");
    assertThat(messages(again, "kept-1").encode()).contains("cancel order 1002");

    // and a second runtime on another data directory next to it
    Runtime beside = start(tmp.resolve("two"));
    assertThat(redisServersOn(tmp.resolve("two/redis"))).hasSize(1);
    assertThat(redisServersOn(data.resolve("redis"))).isEqualTo(after);
    assertThat(beside.post("/api/sessions/beside-1/messages", new JsonObject().put("agent", "order-support")
        .put("text", "where is order 1001")).statusCode()).isEqualTo(202);
    assertThat(messages(again, "kept-1")).isNotEmpty();

    String password = Files.readString(data.resolve("redis/redis.password")).trim();
    for (Runtime r : List.of(first, again, beside)) {
      assertThat(r.output).noneMatch(l -> l.contains(password));
    }

    // stopped the ordinary way (SIGTERM, Ctrl-C), the runtime takes its server with it
    again.stop();
    assertThat(again.process.exitValue()).isNotEqualTo(137);
    until(() -> {
      try {
        return redisServersOn(data.resolve("redis")).isEmpty();
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }, 10);
    assertThat(data.resolve("redis/redis.pid")).doesNotExist();
  }

  @Test
  void someoneElsesRedisOnTheDataDirectoryStopsRunWithOneLineNamingTheDirectory() throws Exception {
    Path redisDir = tmp.resolve("one/redis");
    Files.createDirectories(redisDir);
    Process foreign = new ProcessBuilder(findRedis(), "--port", "0", "--dir", redisDir.toString(),
        "--unixsocket", redisDir.resolve("redis.sock").toString(), "--pidfile", redisDir.resolve("redis.pid").toString(),
        "--requirepass", "someone-elses", "--save", "").redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    others.add(foreign);
    until(() -> Files.exists(redisDir.resolve("redis.pid")) && Files.exists(redisDir.resolve("redis.sock")), 10);

    Runtime refused = launch(tmp.resolve("one"));
    assertThat(refused.process.waitFor(60, TimeUnit.SECONDS)).isTrue();

    assertThat(refused.process.exitValue()).isEqualTo(1);
    assertThat(refused.output).containsExactly("Ratchet could not start its embedded Redis: the data directory "
        + redisDir.toAbsolutePath() + " is in use by another redis-server (pid " + foreign.pid()
        + "); stop it or set redis.embedded.dataDir to another directory");
    assertThat(foreign.isAlive()).isTrue();
  }

  private JsonArray messages(Runtime runtime, String session) {
    try {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(runtime.base() + "/api/sessions/" + session
          + "/messages")).header("Authorization", "Bearer " + TOKEN).GET().build(), HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 ? new JsonObject(r.body()).getJsonArray("messages") : new JsonArray();
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  private Runtime start(Path dataDir) throws Exception {
    Runtime runtime = launch(dataDir);
    until(() -> {
      if (!runtime.process.isAlive()) {
        throw new AssertionError("ratchet run exited with " + runtime.process.exitValue() + ": " + runtime.output);
      }
      return runtime.output.stream().anyMatch(l -> l.startsWith("Demo API token:"));
    }, 120);
    return runtime;
  }

  private Runtime launch(Path dataDir) throws IOException {
    Runtime runtime = new Runtime(dataDir, FreePorts.next());
    runtimes.add(runtime);
    return runtime;
  }

  private final class Runtime {
    final Process process;
    final int httpPort;
    final List<String> output = new CopyOnWriteArrayList<>();

    Runtime(Path dataDir, int httpPort) throws IOException {
      this.httpPort = httpPort;
      // the demo as shipped: its agent file and the shop's OpenAPI document, where run looks for them
      Path root = Path.of(System.getProperty("user.dir")).getParent();
      for (String file : List.of("conf/agents/demo.yaml", "conf/specs/shop.json")) {
        Files.createDirectories(tmp.resolve(file).getParent());
        Files.copy(root.resolve(file), tmp.resolve(file), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
      ProcessBuilder pb = RunProcess.in(tmp);
      Map<String, String> env = pb.environment();
      env.put("RATCHET_DATA_DIR", dataDir.toString());
      env.put("RATCHET_HTTP_PORT", String.valueOf(httpPort));
      // the demo shop's default port is fixed, and two runtimes run side by side here
      env.put("RATCHET_SHOP_PORT", String.valueOf(FreePorts.next()));
      env.put("RATCHET_CONNECTIONS_FILE", tmp.resolve("no-connections.json").toString());
      env.put("RATCHET_ADMIN_PASSWORD", "restart-test-password");
      env.put("RATCHET_DEMO_TOKEN", TOKEN);
      process = pb.start();
      ChildOutput.collect(process, output, "run-stdout");
    }

    String base() {
      return "http://127.0.0.1:" + httpPort;
    }

    HttpResponse<String> post(String path, JsonObject body) throws Exception {
      return http.send(HttpRequest.newBuilder(URI.create(base() + path)).header("Content-Type", "application/json")
          .header("Authorization", "Bearer " + TOKEN).POST(HttpRequest.BodyPublishers.ofString(body.encode())).build(),
          HttpResponse.BodyHandlers.ofString());
    }

    /** SIGKILL: no shutdown hook runs. */
    void kill() throws InterruptedException {
      process.destroyForcibly();
      assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    void stop() throws InterruptedException {
      if (process.isAlive()) {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      }
    }
  }

  /** The running redis-servers whose working directory is {@code dir} (Redis works in its data directory). */
  private static List<Long> redisServersOn(Path dir) throws IOException {
    Path real = dir.toRealPath();
    List<Long> pids = new ArrayList<>();
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      for (Path proc : procs.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
        try {
          String stat = Files.readString(proc.resolve("stat"));
          boolean zombie = stat.charAt(stat.lastIndexOf(')') + 2) == 'Z';
          String cmdline = Files.readString(proc.resolve("cmdline")).replace('\0', ' ');
          if (!zombie && cmdline.contains("redis-server") && Files.readSymbolicLink(proc.resolve("cwd")).equals(real)) {
            pids.add(Long.parseLong(proc.getFileName().toString()));
          }
        } catch (IOException | RuntimeException e) {
          // gone meanwhile, or another account's
        }
      }
    }
    return pids;
  }

  private static String findRedis() throws IOException {
    return dev.ratchet.embedded.RedisServerProcess.findBinary();
  }

  private static void until(BooleanSupplier condition, int seconds) throws InterruptedException {
    long deadline = System.currentTimeMillis() + seconds * 1000L;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("condition not met within " + seconds + " s");
      }
      Thread.sleep(200);
    }
  }
}
