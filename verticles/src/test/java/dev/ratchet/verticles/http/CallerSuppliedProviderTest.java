package dev.ratchet.verticles.http;

import dev.ratchet.connectors.provider.ConnectionScope;
import dev.ratchet.connectors.provider.ProviderToolConfig;
import dev.ratchet.connectors.provider.ProviderToolSource;
import dev.ratchet.connectors.provider.ToolProviderOptions;
import dev.ratchet.connectors.provider.composio.ComposioToolProvider;
import dev.ratchet.connectors.provider.composio.FakeComposio;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.Secret;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnRequest;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One agent serves two tenants: its Composio tools are caller-supplied, and each session's caller
 * is the authenticated API token's resource id. Every call runs at the (local) Composio server as
 * its session's tenant, and no tenant can run in, or read through, another tenant's session.
 */
class CallerSuppliedProviderTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private static final String TOKEN_A = "rt_tenant-a-token-1234567";
  private static final String TOKEN_B = "rt_tenant-b-token-1234567";

  private Vertx vertx;
  private FakeComposio composio;
  private RatchetNode ratchet;
  private String base;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    composio = new FakeComposio();
    composio.account("ca_a_github", "tenant-a", "github", "ACTIVE");
    composio.account("ca_b_github", "tenant-b", "github", "ACTIVE");
    int port = composio.start(vertx);
    ComposioToolProvider provider = ComposioToolProvider.create(vertx, ToolProviderOptions
        .apiKey(Secret.of(FakeComposio.KEY)).baseUrl("http://127.0.0.1:" + port)
        .defaultScope(ConnectionScope.CALLER_SUPPLIED));
    ProviderToolSource tools = ProviderToolSource.perCaller(provider, List.of("GITHUB_GET_REPO", "GITHUB_CREATE_ISSUE"),
        Map.of("GITHUB_CREATE_ISSUE", ProviderToolConfig.pin(EffectClass.NON_IDEMPOTENT_WRITE, false)));
    // sessions passivate quickly, so later turns also run in a session verticle that read its caller back
    ratchet = await(RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl(REDIS.url()).keyPrefix(REDIS.keyPrefix())
        .sessionIdleMillis(200)));
    await(ratchet.register(AgentDefinition.builder("github-helper").toolSource(tools).build()));
    HttpServerVerticle server = new HttpServerVerticle(ratchet, HttpOptions.create().port(0).host("127.0.0.1")
        .token("acme-bot", Role.AGENT, PasswordHash.hashToken(TOKEN_A), "tenant-a")
        .token("tenant-b", Role.AGENT, PasswordHash.hashToken(TOKEN_B))
        .user("vic", Role.VIEWER, PasswordHash.hashPassword(ShopRuntime.PASSWORD.toCharArray(), 1_000), null,
            List.of("*")));
    await(vertx.deployVerticle(server));
    base = "http://127.0.0.1:" + server.actualPort();
  }

  @AfterEach
  void stop() {
    await(ratchet.close());
    await(vertx.close());
  }

  private static JsonObject turn(String turnId) {
    JsonArray calls = new JsonArray()
        .add(new JsonObject().put("name", "GITHUB_GET_REPO").put("arguments", new JsonObject().put("title", "r")))
        .add(new JsonObject().put("name", "GITHUB_CREATE_ISSUE").put("arguments", new JsonObject().put("title", "i")));
    return new JsonObject().put("agent", "github-helper").put("turn", new JsonObject().put("turnId", turnId)
        .put("calls", calls));
  }

  private static JsonArray results(Http who, String session, String turnId) {
    Http.Answer posted = who.post("/api/sessions/" + session + "/turns", turn(turnId));
    assertThat(posted.status()).as(posted.body()).isIn(200, 202);
    Http.Answer done = who.get("/api/sessions/" + session + "/turns/" + turnId + "?wait=20");
    assertThat(done.status()).as(done.body()).isEqualTo(200);
    return done.json().getJsonObject("results").getJsonArray("results");
  }

  private List<String> executions() {
    return composio.executions.stream().map(e -> e.getString("slug") + "@" + e.getString("user_id") + "/"
        + e.getString("account")).toList();
  }

  private static void waitForPassivation(RatchetNode ratchet) {
    long deadline = System.currentTimeMillis() + 10_000;
    while (ratchet.activeSessions() > 0 && System.currentTimeMillis() < deadline) {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    assertThat(ratchet.activeSessions()).isZero();
  }

  @Test
  void eachTenantsCallsRunWithItsOwnConnectionAndNoOneElses() {
    Http tenantA = Http.bearer(base, TOKEN_A);
    Http tenantB = Http.bearer(base, TOKEN_B);
    String sessionA = "a-" + UUID.randomUUID();
    String sessionB = "b-" + UUID.randomUUID();

    assertThat(results(tenantA, sessionA, "t1")).allSatisfy(r ->
        assertThat(((JsonObject) r).getString("outcome")).isEqualTo("succeeded"));
    assertThat(results(tenantB, sessionB, "t1")).allSatisfy(r ->
        assertThat(((JsonObject) r).getString("outcome")).isEqualTo("succeeded"));
    assertThat(executions()).containsExactlyInAnyOrder(
        "GITHUB_GET_REPO@tenant-a/ca_a_github", "GITHUB_CREATE_ISSUE@tenant-a/ca_a_github",
        "GITHUB_GET_REPO@tenant-b/ca_b_github", "GITHUB_CREATE_ISSUE@tenant-b/ca_b_github");

    // the caller is shown with the session (it is not a secret)
    Http viewer = Http.login(base, "vic", ShopRuntime.PASSWORD);
    assertThat(viewer.get("/api/sessions/" + sessionA).json().getString("caller")).isEqualTo("tenant-a");
    JsonArray listed = viewer.get("/api/sessions?limit=50").json().getJsonArray("sessions");
    assertThat(listed.stream().map(JsonObject.class::cast).filter(s -> sessionB.equals(s.getString("sessionId")))
        .map(s -> s.getString("caller"))).containsExactly("tenant-b");
    assertThat(viewer.get("/api/me").json().getString("callerId")).isEqualTo("vic");
    assertThat(tenantA.get("/api/me").json().getString("callerId")).isEqualTo("tenant-a");

    // tenant-b cannot submit into tenant-a's session, nor read a turn's results by submitting it again:
    // the session answers as if it did not exist
    int eventsBefore = await(ratchet.journal().events(sessionA, null, 10_000)).size();
    int executed = composio.executions.size();
    Http.Answer intruder = tenantB.post("/api/sessions/" + sessionA + "/turns", turn("t2"));
    assertThat(intruder.status()).as(intruder.body()).isEqualTo(404);
    assertThat(intruder.json()).isEqualTo(new JsonObject().put("code", "UNKNOWN_SESSION")
        .put("message", "no session '" + sessionA + "'"));
    Http.Answer replay = tenantB.post("/api/sessions/" + sessionA + "/turns", turn("t1"));
    assertThat(replay.status()).isEqualTo(404);
    assertThat(replay.json().containsKey("results")).isFalse();
    assertThat(await(ratchet.journal().events(sessionA, null, 10_000))).hasSize(eventsBefore);
    assertThat(await(ratchet.journal().turnResult(sessionA, "t2"))).isNull();
    assertThat(composio.executions).hasSize(executed);

    // a body cannot name the caller: the authenticated token decides it
    Http.Answer spoofed = tenantB.post("/api/sessions/" + sessionA + "/turns", turn("t3").put("callerId", "tenant-a"));
    assertThat(spoofed.status()).isEqualTo(400);
    assertThat(spoofed.json().getString("message")).contains("callerId");
    assertThat(composio.executions).hasSize(executed);

    // after passivation the session's caller comes back from the journal: a later turn runs as tenant-a
    waitForPassivation(ratchet);
    assertThat(results(tenantA, sessionA, "t4")).allSatisfy(r ->
        assertThat(((JsonObject) r).getString("outcome")).isEqualTo("succeeded"));
    assertThat(executions().subList(executed, executed + 2)).containsExactlyInAnyOrder(
        "GITHUB_GET_REPO@tenant-a/ca_a_github", "GITHUB_CREATE_ISSUE@tenant-a/ca_a_github");
  }

  @Test
  void aSessionWithoutACallerFailsItsProviderCallsAsNotRunAndTheProviderSeesNothing() {
    int requests = composio.requests.get();
    TurnResult result = await(ratchet.submit("github-helper", "none-" + UUID.randomUUID(),
        new Turn("t1", List.of(new ToolCall("GITHUB_GET_REPO", new JsonObject().put("title", "r")),
            new ToolCall("GITHUB_CREATE_ISSUE", new JsonObject().put("title", "i"))))));
    for (CallResult call : result.calls()) {
      assertThat(call.outcome()).isEqualTo(Outcome.FAILED);
      assertThat(call.error()).startsWith(CallResult.NOT_RUN_PREFIX).contains("no resource id");
    }
    assertThat(composio.requests.get()).isEqualTo(requests);
    assertThat(composio.executions).isEmpty();
  }

  @Test
  void theTrustedJavaApiNamesTheCallerAndALaterSubmitWithoutOneKeepsIt() {
    String session = "java-" + UUID.randomUUID();
    Turn first = new Turn("t1", List.of(new ToolCall("GITHUB_GET_REPO", new JsonObject().put("title", "r"))));
    assertThat(await(ratchet.submit(TurnRequest.of("github-helper", session, first).callerId("tenant-b"))).calls()
        .get(0).outcome())
        .isEqualTo(Outcome.SUCCEEDED);
    Turn second = new Turn("t2", List.of(new ToolCall("GITHUB_GET_REPO", new JsonObject().put("title", "r"))));
    assertThat(await(ratchet.submit("github-helper", session, second)).calls().get(0).outcome())
        .isEqualTo(Outcome.SUCCEEDED);
    assertThat(executions()).containsExactly("GITHUB_GET_REPO@tenant-b/ca_b_github",
        "GITHUB_GET_REPO@tenant-b/ca_b_github");

    // and over HTTP, tenant-a's token cannot join it
    Http.Answer intruder = Http.bearer(base, TOKEN_A).post("/api/sessions/" + session + "/turns", turn("t3"));
    assertThat(intruder.status()).isEqualTo(404);
    assertThat(composio.executions).hasSize(2);
  }
}
