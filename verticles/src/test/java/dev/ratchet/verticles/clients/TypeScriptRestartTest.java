package dev.ratchet.verticles.clients;

import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Ratchet restarts while a TypeScript agent process waits for its write's approval: the process
 * keeps waiting on the same turn id through the outage (longer than a few quick retries) and
 * prints the write's result once it is approved on the restarted Ratchet.
 */
class TypeScriptRestartTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  /** Longer than the few quick retries of a request: only waiting to the turn's deadline survives it. */
  private static final long OUTAGE_MILLIS = 9_000;

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @Test
  void aClientWaitingForApprovalWaitsOutARestartOfRatchetOnTheSameTurn() throws Exception {
    assumeTrue(ClientSuite.onPath("node") && ClientSuite.onPath("npm"), "node and npm are needed for the TypeScript client");
    Path log = Files.createTempFile("ratchet-ts-restart", ".log");
    Path dir = ClientSuite.typeScriptPackage(log);
    ClientsRuntime first = new ClientsRuntime(REDIS);
    int port = URI.create(first.baseUrl()).getPort();
    String session = "restart-" + UUID.randomUUID();
    ProcessBuilder builder = new ProcessBuilder("node", "tests/fixtures/wait-through-restart.js", session, "o-1")
        .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().putAll(first.environment());
    Process agent = builder.start();
    ClientsRuntime second = null;
    try {
      awaitApproval(first.baseUrl(), session);
      first.close();
      Thread.sleep(OUTAGE_MILLIS);
      second = new ClientsRuntime(REDIS, port);
      JsonObject pending = awaitApproval(second.baseUrl(), session);
      HttpResponse<String> decided = http.send(HttpRequest.newBuilder(URI.create(second.baseUrl() + "/api/approvals/"
              + session + "/" + pending.getString("callId")))
          .header("Authorization", "Bearer " + ClientsRuntime.APPROVER_TOKEN).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("argumentsHash", pending.getString("argumentsHash"))
              .put("approved", true).encode())).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(decided.statusCode()).as(decided.body()).isEqualTo(200);

      assertThat(agent.waitFor(60, TimeUnit.SECONDS)).as("the agent process ended").isTrue();
      String output = Files.readString(log, StandardCharsets.UTF_8);
      assertThat(agent.exitValue()).as(output).isZero();
      assertThat(output).contains("answer {\"done\":\"cancel_order\",\"order\":\"o-1\",\"time\":1}");
    } finally {
      agent.destroyForcibly();
      if (second != null) {
        second.close();
      }
    }
  }

  private JsonObject awaitApproval(String base, String session) throws Exception {
    long deadline = System.currentTimeMillis() + 30_000;
    while (System.currentTimeMillis() < deadline) {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/approvals"))
          .header("Authorization", "Bearer " + ClientsRuntime.APPROVER_TOKEN).timeout(Duration.ofSeconds(10)).build(),
          HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() == 200) {
        for (Object o : new JsonObject(r.body()).getJsonArray("approvals", new JsonArray())) {
          if (session.equals(((JsonObject) o).getString("sessionId"))) {
            return (JsonObject) o;
          }
        }
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no approval was asked in session " + session);
  }
}
