package dev.ratchet.server;

import dev.ratchet.server.bench.OrdersProvider;
import dev.ratchet.verticles.http.PasswordHash;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ratchet run} serves HTTP while it still loads its agent files (one of them names an MCP
 * server that does not answer until the test lets it): from the moment the port opens, every turn
 * is refused {@code 503 NOT_READY} with {@code Retry-After} or served, never {@code 404 UNKNOWN_AGENT};
 * {@code /health/live} answers at once, {@code /health/ready} once the agents are loaded.
 */
class ReadinessStartupTest {

  private static final String TOKEN = "rt_readiness-agent-token-0123";

  @TempDir
  Path dir;

  private final Vertx vertx = Vertx.vertx();
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();
  private RunChild run;

  @AfterEach
  void stop() throws Exception {
    if (run != null) {
      run.close();
    }
    await(vertx.close());
  }

  @Test
  void noTurnIsTakenOrRefusedAsUnknownBeforeTheAgentFilesAreLoaded() throws Exception {
    OrdersProvider orders = new OrdersProvider().start(vertx);
    Path agents = dir.resolve("agents");
    OrdersProvider.writeAgent(dir, agents, "always");
    Path release = dir.resolve("release-mcp");
    Files.writeString(agents.resolve("held.json"), new JsonObject().put("agent", "held").put("tools", new JsonArray()
        .add(new JsonObject().put("mcp", new JsonObject().put("command", heldMcpServer(release))))).encode());
    Files.createDirectories(dir.resolve("conf"));
    Files.writeString(dir.resolve("conf/ratchet.json"), new JsonObject()
        .put("http", new JsonObject().put("tokens", new JsonArray().add(new JsonObject().put("name", "readiness")
            .put("role", "agent").put("tokenHash", PasswordHash.hashToken(TOKEN))))).encode());
    Map<String, String> env = new HashMap<>(orders.connection());
    env.put("RATCHET_AGENTS_DIR", agents.toString());
    run = new RunChild("unused-demo-token", "readiness-admin-password").env(env)
        .start(dir, "Ratchet serves HTTP", 120);

    List<String> answers = new ArrayList<>();
    HttpResponse<String> served = null;
    for (int i = 0; served == null; i++) {
      assertThat(i).as("answers so far: %s\n%s", answers, run.output()).isLessThan(600);
      HttpResponse<String> r;
      try {
        r = submit("boot-" + i);
      } catch (java.io.IOException e) {
        throw new AssertionError("ratchet run stopped serving: " + String.join("\n", run.output()), e);
      }
      answers.add(r.statusCode() + " " + r.body());
      if (r.statusCode() == 503) {
        assertThat(new JsonObject(r.body()).getString("code")).as(r.body()).isEqualTo("NOT_READY");
        assertThat(r.headers().firstValue("Retry-After")).as("Retry-After of a 503").hasValue("1");
        assertThat(get("/health/live").statusCode()).isEqualTo(200);
        HttpResponse<String> ready = get("/health/ready");
        if (!Files.exists(release)) {
          // nothing can be loaded yet: the MCP server waits for this file
          assertThat(ready.statusCode()).as(ready.body()).isEqualTo(503);
          assertThat(new JsonObject(ready.body()).getJsonArray("waitingFor")).contains("agents");
          Files.writeString(release, "go");
        }
        Thread.sleep(100);
      } else {
        assertThat(r.statusCode()).as("answer %d: %s", i, r.body()).isIn(200, 202);
        served = r;
      }
    }
    assertThat(answers.get(0)).as("the first answer, before the MCP server was let go").startsWith("503 ");
    assertThat(answers).allMatch(a -> a.startsWith("503 ") || a.startsWith("200 ") || a.startsWith("202 "));

    HttpResponse<String> ready = get("/health/ready");
    assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
    assertThat(new JsonObject(ready.body()).getString("status")).isEqualTo("READY");
    run.until(() -> run.line("Ratchet is ready") != null, 30);
    String session = "boot-" + (answers.size() - 1);
    JsonObject turn = new JsonObject(http.send(request("/api/sessions/" + session + "/turns/t1?wait=10").GET().build(),
        HttpResponse.BodyHandlers.ofString()).body());
    assertThat(turn.getString("status")).as(turn.encode()).isEqualTo("completed");
    assertThat(turn.getJsonObject("results").getJsonArray("results").getJsonObject(0).getString("outcome"))
        .isEqualTo("succeeded");
  }

  /** A stdio MCP server that starts only once {@code release} exists, so that loading the agent files waits for it. */
  private static JsonArray heldMcpServer(Path release) {
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String java = ProcessHandle.current().info().command().orElse("java");
    return new JsonArray().add("/bin/sh").add("-c")
        .add("while [ ! -e \"$0\" ]; do sleep 0.05; done; exec \"$1\" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
            + " -cp \"$2\" " + ClockMcpServer.class.getName())
        .add(release.toString()).add(java).add(classpath);
  }

  private HttpResponse<String> submit(String session) throws Exception {
    JsonObject body = new JsonObject().put("agent", "orders").put("turn", new JsonObject().put("turnId", "t1")
        .put("calls", new JsonArray().add(new JsonObject().put("name", "orders_get_order")
            .put("arguments", new JsonObject().put("orderId", "1001")))));
    return http.send(request("/api/sessions/" + session + "/turns").header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body.encode())).build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(run.baseUrl() + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(run.baseUrl() + path)).timeout(Duration.ofSeconds(30))
        .header("Authorization", "Bearer " + TOKEN);
  }
}
