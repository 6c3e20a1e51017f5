package dev.ratchet.verticles.http;

import dev.ratchet.connectors.mcp.EverythingMcpServer;
import dev.ratchet.connectors.mcp.McpServerConfig;
import dev.ratchet.connectors.mcp.McpToolSource;
import dev.ratchet.connectors.mcp.TestInvocations;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.Redaction;
import dev.ratchet.runtime.Secret;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolResult;
import dev.ratchet.host.ChildEnvironment;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.runtime.testing.SecretSpellings;
import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import dev.ratchet.verticles.impl.RatchetNodeImpl;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Secrets of MCP servers, checked against the official reference server whose {@code get-env}
 * tool prints its whole environment: a server sees only its own configuration and a minimal
 * environment, and no spelling of a secret reaches results, the HTTP API, the journal or the log.
 */
class McpSecretsLeakTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private static final String AGENT_TOKEN = "rt_leak-test-agent-token-123456";

  /** With the characters that JSON, URL and base64 encoding change, and unique to this run. */
  private final String secret = "sk-test-" + UUID.randomUUID().toString().substring(0, 8) + "/\"q\" +é-"
      + UUID.randomUUID().toString().substring(0, 8);

  private Vertx vertx;
  private final List<McpToolSource> sources = new ArrayList<>();

  @BeforeEach
  void setUp() {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void tearDown() {
    sources.forEach(s -> await(s.close()));
    await(vertx.close());
  }

  private McpToolSource source(McpServerConfig config) {
    McpToolSource source = McpToolSource.create(vertx, config);
    sources.add(source);
    return source;
  }

  /** Server A: the secret, and plain values that carry it URL-encoded and inside a Basic header. */
  private McpServerConfig alpha() throws Exception {
    return EverythingMcpServer.stdio("alpha").toolPrefix("alpha_")
        .env("API_TOKEN", Secret.from(() -> secret))
        .env("MODE", "production")
        .env("CALLBACK_URL", "https://hooks.example/cb?t=" + URLEncoder.encode(secret, StandardCharsets.UTF_8))
        .env("UPSTREAM_HEADER", "Basic " + SecretSpellings.embeddedBase64("bot:", secret))
        .build();
  }

  private static McpServerConfig.Builder beta() throws Exception {
    return EverythingMcpServer.stdio("beta").toolPrefix("beta_");
  }

  private static JsonObject env(ToolResult result) {
    assertThat(result.outcome()).as(String.valueOf(result.error())).isEqualTo(Outcome.SUCCEEDED);
    return new JsonObject((String) result.value());
  }

  private static ToolResult call(McpToolSource source, String name) {
    Tool tool = await(source.tools(null)).stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    return await(tool.invoke(TestInvocations.of(new JsonObject())));
  }

  @Test
  void aServerStartsWithAMinimalEnvironmentAndNeverSeesAnotherServersSecret() throws Exception {
    McpToolSource a = source(alpha());
    McpToolSource b = source(beta().build());
    JsonObject alphaEnv = env(call(a, "alpha_get-env"));
    JsonObject betaEnv = env(call(b, "beta_get-env"));

    Set<String> allowed = new HashSet<>(ChildEnvironment.PASSED_ON);
    assertThat(betaEnv.fieldNames()).isSubsetOf(allowed);
    // this JVM has variables beyond the minimal set (the build's, the shell's): none of them reaches a server
    List<String> jvmOnly = System.getenv().keySet().stream().filter(k -> !allowed.contains(k)).toList();
    assertThat(jvmOnly).isNotEmpty();
    assertThat(betaEnv.fieldNames()).doesNotContainAnyElementsOf(jvmOnly);
    assertThat(SecretSpellings.foundIn(betaEnv.encode(), secret)).isEmpty();

    Set<String> alphaAllowed = new HashSet<>(allowed);
    alphaAllowed.addAll(List.of("API_TOKEN", "MODE", "CALLBACK_URL", "UPSTREAM_HEADER"));
    assertThat(alphaEnv.fieldNames()).isSubsetOf(alphaAllowed).contains("API_TOKEN");
    assertThat(alphaEnv.getString("API_TOKEN")).isEqualTo("***");
    // a plain value is not a secret: it comes back as it was
    assertThat(alphaEnv.getString("MODE")).isEqualTo("production");
    assertThat(alphaEnv.getString("CALLBACK_URL")).startsWith("https://hooks.example/cb?t=").contains("***");
    assertThat(alphaEnv.getString("UPSTREAM_HEADER")).startsWith("Basic ").contains("***");
  }

  @Test
  void inheritEnvironmentGivesTheServerThisJvmsWholeEnvironment() throws Exception {
    McpToolSource b = source(beta().inheritEnvironment(true).build());
    JsonObject betaEnv = env(call(b, "beta_get-env"));
    Map<String, String> own = System.getenv();
    // a variable outside the minimal set whose value is plain text the redactor leaves alone
    String outside = own.keySet().stream().filter(k -> !ChildEnvironment.PASSED_ON.contains(k))
        .filter(k -> own.get(k).matches("[ -~]+") && own.get(k).equals(Redaction.scrub(own.get(k)))).findFirst()
        .orElseThrow();
    assertThat(betaEnv.getString(outside)).isEqualTo(own.get(outside));
  }

  @Test
  void noSpellingOfTheSecretReachesResultsTheHttpApiTheJournalOrTheLog() throws Exception {
    PrintStream originalErr = System.err;
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    // the log as it is written, before any redacting stream: what Ratchet and the SDK log must already be clean
    System.setErr(new PrintStream(new Tee(originalErr, log), true, StandardCharsets.UTF_8));
    try {
      RatchetNode ratchet = await(RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl(REDIS.url())
          .keyPrefix(REDIS.keyPrefix())));
      // Java functions that hand the secret back: the engine scrubs what no tool source did
      FunctionToolSource local = FunctionToolSource.create("local")
          .read("leak_result", "returns a token", new JsonObject().put("type", "object"),
              inv -> Future.succeededFuture(new JsonObject().put("token", secret)))
          .read("leak_error", "fails quoting a token", new JsonObject().put("type", "object"),
              inv -> Future.failedFuture(new IllegalStateException("refused key " + secret)));
      await(ratchet.register(AgentDefinition.builder("leaky").toolSource(source(alpha()))
          .toolSource(source(beta().build())).toolSource(local).build()));
      HttpServerVerticle server = new HttpServerVerticle(ratchet, HttpOptions.create().port(0).host("127.0.0.1")
          .token("bot", Role.AGENT, PasswordHash.hashToken(AGENT_TOKEN)));
      await(vertx.deployVerticle(server));
      Http http = Http.bearer("http://127.0.0.1:" + server.actualPort(), AGENT_TOKEN);

      String session = "leak-" + UUID.randomUUID().toString().substring(0, 8);
      JsonObject turn = new JsonObject().put("agent", "leaky").put("turn", new JsonObject().put("turnId", "t1")
          .put("calls", new JsonArray()
              .add(new JsonObject().put("name", "beta_get-env").put("arguments", new JsonObject()))
              .add(new JsonObject().put("name", "alpha_get-env").put("arguments", new JsonObject()))
              .add(new JsonObject().put("name", "leak_result").put("arguments", new JsonObject()))
              .add(new JsonObject().put("name", "leak_error").put("arguments", new JsonObject()))));
      Http.Answer submitted = http.post("/api/sessions/" + session + "/turns", turn);
      assertThat(submitted.status()).as(submitted.body()).isIn(200, 202);
      Http.Answer results = http.get("/api/sessions/" + session + "/turns/t1?wait=30");
      assertThat(results.status()).as(results.body()).isEqualTo(200);
      JsonArray records = results.json().getJsonObject("results").getJsonArray("results");
      assertThat(records).hasSize(4);
      for (int i = 0; i < 3; i++) {
        assertThat(records.getJsonObject(i).getString("outcome")).as(records.encode()).isEqualTo("succeeded");
      }
      assertThat(records.getJsonObject(2).getJsonObject("result").getString("token")).isEqualTo("***");
      // failed after its retries, each journaled as call.attempt_failed with the error
      assertThat(records.getJsonObject(3).getString("error")).endsWith("refused key ***");
      JsonObject alphaEnv = new JsonObject(records.getJsonObject(1).getString("result"));
      assertThat(alphaEnv.getString("API_TOKEN")).isEqualTo("***");
      assertThat(alphaEnv.getString("MODE")).isEqualTo("production");

      StringBuilder seen = new StringBuilder();
      seen.append(results.body());
      seen.append(http.get("/api/sessions/" + session).body());
      seen.append(http.get("/api/agents/leaky/tools").body());
      seen.append(journal(((RatchetNodeImpl) ratchet).redisJournal()));
      await(ratchet.close());
      System.err.flush();
      seen.append(log.toString(StandardCharsets.UTF_8));

      assertThat(seen.toString()).contains("production");
      assertThat(SecretSpellings.foundIn(seen.toString(), secret)).isEmpty();
      // the Basic header's base64, at whichever alignment the secret sits in it
      assertThat(seen.toString()).doesNotContain(SecretSpellings.embeddedBase64("bot:", secret).substring(8, 40));
    } finally {
      System.setErr(originalErr);
    }
  }

  /** Every key of this test class's journal, with every value it holds. */
  private static String journal(RedisJournal journal) {
    StringBuilder dump = new StringBuilder();
    String cursor = "0";
    do {
      Response page = await(journal.send(Request.cmd(Command.SCAN).arg(cursor).arg("MATCH")
          .arg(REDIS.keyPrefix() + "*").arg("COUNT").arg(1000)));
      cursor = page.get(0).toString();
      for (Response key : page.get(1)) {
        String k = key.toString();
        dump.append(k).append('\n');
        String type = await(journal.send(Request.cmd(Command.TYPE).arg(k))).toString();
        Request read = switch (type) {
          case "string" -> Request.cmd(Command.GET).arg(k);
          case "hash" -> Request.cmd(Command.HGETALL).arg(k);
          case "list" -> Request.cmd(Command.LRANGE).arg(k).arg(0).arg(-1);
          case "set" -> Request.cmd(Command.SMEMBERS).arg(k);
          case "zset" -> Request.cmd(Command.ZRANGE).arg(k).arg(0).arg(-1).arg("WITHSCORES");
          case "stream" -> Request.cmd(Command.XRANGE).arg(k).arg("-").arg("+");
          default -> null;
        };
        if (read != null) {
          dump.append(await(journal.send(read))).append('\n');
        }
      }
    } while (!cursor.equals("0"));
    assertThat(dump).as("the journal has this session's keys").contains(":turn:");
    return dump.toString();
  }

  /** Writes to two streams. */
  private static final class Tee extends OutputStream {
    private final OutputStream a;
    private final OutputStream b;

    Tee(OutputStream a, OutputStream b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public synchronized void write(int c) throws java.io.IOException {
      a.write(c);
      b.write(c);
    }

    @Override
    public synchronized void write(byte[] buf, int off, int len) throws java.io.IOException {
      a.write(buf, off, len);
      b.write(buf, off, len);
    }

    @Override
    public void flush() throws java.io.IOException {
      a.flush();
      b.flush();
    }
  }
}
