package dev.ratchet.server.cli;

import dev.ratchet.host.FreePorts;
import dev.ratchet.server.ChildOutput;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ratchet run} started in a directory without the demo's agent file: it says where it looked
 * and what it serves, and creates no demo token (none is stored, none is accepted).
 */
class RunOutsideTheRepositoryTest {

  @TempDir
  Path tmp;

  private Process process;

  @AfterEach
  void stop() throws InterruptedException {
    if (process != null && process.isAlive()) {
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }

  @Test
  void withoutTheDemosAgentFileRunSaysWhereItLookedAndCreatesNoDemoToken() throws Exception {
    Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
    int port = FreePorts.next();
    ProcessBuilder pb = RunProcess.in(elsewhere);
    Map<String, String> env = pb.environment();
    List.of("RATCHET_AGENTS_DIR", "RATCHET_ADMIN_PASSWORD", "RATCHET_DEMO_TOKEN").forEach(env::remove);
    Path data = tmp.resolve("data");
    env.put("RATCHET_DATA_DIR", data.toString());
    env.put("RATCHET_HTTP_PORT", String.valueOf(port));
    env.put("RATCHET_CONNECTIONS_FILE", tmp.resolve("no-connections.json").toString());
    process = pb.start();
    List<String> output = new CopyOnWriteArrayList<>();
    ChildOutput.collect(process, output, "run-stdout");

    long deadline = System.currentTimeMillis() + 120_000;
    while (output.stream().noneMatch(l -> l.contains("Stop with Ctrl-C"))) {
      assertThat(process.isAlive()).as("run exited: " + output).isTrue();
      assertThat(System.currentTimeMillis()).as("run did not start: " + output).isLessThan(deadline);
      Thread.sleep(200);
    }
    String said = String.join("\n", output);
    Path looked = elsewhere.resolve("conf/agents").toAbsolutePath().normalize();
    assertThat(said).contains("No demo: demo.yaml is not in " + looked)
        .contains("no demo token").contains("serves the HTTP API, the dashboard")
        .contains("RATCHET_AGENTS_DIR")
        .doesNotContain("Demo API token").doesNotContain("Demo shop service");
    JsonObject stored = new JsonObject(Files.readString(data.resolve("credentials.json")));
    assertThat(stored.getString("adminPassword")).isNotBlank();
    assertThat(stored.containsKey("demoToken")).as("a demo token was stored: " + stored.fieldNames()).isFalse();
    // no token at all opens the API
    HttpResponse<String> agents = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/agents"))
            .header("Authorization", "Bearer rt_guess").timeout(Duration.ofSeconds(10)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(agents.statusCode()).isEqualTo(401);
  }
}
