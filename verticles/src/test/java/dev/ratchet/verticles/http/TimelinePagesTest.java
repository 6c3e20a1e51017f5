package dev.ratchet.verticles.http;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.engine.EngineOptions;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The session timeline over real HTTP, a page of turns at a time, also for a session with a huge turn. */
class TimelinePagesTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  static final String TOKEN = "rt_pages-agent-token-0123456789";
  static final String PASSWORD = "correct horse battery staple";

  static HttpRuntime runtime;

  @BeforeAll
  static void start() {
    FunctionToolSource tools = FunctionToolSource.create("shop-tools")
        .tool(FunctionToolSource.define("look", EffectClass.READ)
            .handler(inv -> Future.succeededFuture(new JsonObject().put("seen", inv.arguments().getInteger("i")))));
    // a deployment that raised the limit: what a session with a huge turn looks like
    runtime = HttpRuntime.serving(REDIS, o -> o.engine(EngineOptions.DEFAULT.withMaxCallsPerTurn(10_000)),
        AgentDefinition.builder("shop").toolSource(tools).build(), HttpOptions.create()
            .token("bot", Role.AGENT, PasswordHash.hashToken(TOKEN))
            .user("vic", Role.VIEWER, PasswordHash.hashPassword(PASSWORD.toCharArray(), 1_000), null, List.of("*")));
  }

  @AfterAll
  static void stop() {
    runtime.close();
  }

  static Http viewer() {
    return Http.login(runtime.baseUrl(), "vic", PASSWORD);
  }

  static Http agent() {
    return Http.bearer(runtime.baseUrl(), TOKEN);
  }

  static JsonObject turn(String turnId, int calls) {
    JsonArray list = new JsonArray();
    for (int i = 0; i < calls; i++) {
      list.add(new JsonObject().put("name", "look").put("arguments", new JsonObject().put("i", i)));
    }
    return new JsonObject().put("agent", "shop").put("turn", new JsonObject().put("turnId", turnId).put("calls", list));
  }

  /** Submits a turn and waits for its results: the answer to the submission may come before them. */
  static void submitAndAwait(String sessionId, JsonObject turn) {
    String turnId = turn.getJsonObject("turn").getString("turnId");
    assertThat(agent().post("/api/sessions/" + sessionId + "/turns", turn).status()).isIn(200, 202);
    Http.Answer done = agent().get("/api/sessions/" + sessionId + "/turns/" + turnId + "?wait=30");
    assertThat(done.json().getString("status")).as(done.body()).isEqualTo("completed");
  }

  static List<String> turnIds(JsonObject timeline) {
    List<String> ids = new ArrayList<>();
    timeline.getJsonArray("turns").forEach(t -> ids.add(((JsonObject) t).getString("turnId")));
    return ids;
  }

  @Test
  void theTimelineShowsTheLatestTurnsAndLinksToEarlierPagesUntilTheFirst() {
    String s = "pages-" + UUID.randomUUID().toString().substring(0, 8);
    for (int i = 1; i <= 7; i++) {
      submitAndAwait(s, turn("t" + i, 1));
    }

    JsonObject latest = viewer().get("/api/sessions/" + s + "?limit=3").json();
    assertThat(turnIds(latest)).containsExactly("t5", "t6", "t7");
    assertThat(latest.getInteger("turnsTotal")).isEqualTo(7);
    JsonObject call = latest.getJsonArray("turns").getJsonObject(2).getJsonArray("calls").getJsonObject(0);
    assertThat(call.getJsonObject("result")).isEqualTo(new JsonObject().put("seen", 0));

    JsonObject middle = viewer().get(latest.getString("earlier")).json();
    assertThat(turnIds(middle)).containsExactly("t2", "t3", "t4");
    JsonObject first = viewer().get(middle.getString("earlier")).json();
    assertThat(turnIds(first)).containsExactly("t1");
    assertThat(first.containsKey("earlier")).isFalse();

    assertThat(turnIds(viewer().get("/api/sessions/" + s).json())).hasSize(7);
    Http.Answer unknown = viewer().get("/api/sessions/" + s + "?before=nope");
    assertThat(unknown.status()).isEqualTo(400);
    assertThat(viewer().get("/api/sessions/" + s + "?limit=0").status()).isEqualTo(400);
  }

  @Test
  void aSessionWithATurnOfTenThousandCallsStillHasATimeline() {
    String s = "huge-" + UUID.randomUUID().toString().substring(0, 8);
    Http.Answer submitted = agent().post("/api/sessions/" + s + "/turns", turn("big", 10_000));
    assertThat(submitted.status()).as(submitted.body()).isIn(200, 202);
    submitAndAwait(s, turn("after", 1));

    Http.Answer timeline = viewer().get("/api/sessions/" + s);
    assertThat(timeline.status()).as(timeline.body().substring(0, Math.min(300, timeline.body().length())))
        .isEqualTo(200);
    assertThat(turnIds(timeline.json())).contains("after");
    // and the next read, and the turn's own results, are served too
    assertThat(viewer().get("/api/sessions/" + s + "?limit=1").json().getJsonArray("turns").getJsonObject(0)
        .getString("turnId")).isEqualTo("after");
    Http.Answer results = agent().get("/api/sessions/" + s + "/turns/big");
    assertThat(results.status()).isEqualTo(200);
    assertThat(results.json().getJsonObject("results").getJsonArray("results")).hasSize(10_000);
  }
}
