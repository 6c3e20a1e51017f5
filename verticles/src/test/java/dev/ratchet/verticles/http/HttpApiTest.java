package dev.ratchet.verticles.http;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The HTTP API over real HTTP, against a runtime on real Redis. */
class HttpApiTest {

  @RegisterExtension
  static final ShopServer SHOP = new ShopServer();

  static String base;

  @BeforeAll
  static void start() {
    base = SHOP.baseUrl();
  }

  static Http agent() {
    return Http.bearer(base, ShopRuntime.AGENT_TOKEN);
  }

  static String session() {
    return "s-" + UUID.randomUUID().toString().substring(0, 8);
  }

  static JsonObject turn(String turnId, JsonObject... calls) {
    return new JsonObject().put("agent", "shop").put("turn", new JsonObject().put("turnId", turnId)
        .put("calls", new JsonArray(java.util.List.of((Object[]) calls))));
  }

  static JsonObject call(String name, JsonObject arguments) {
    return new JsonObject().put("name", name).put("arguments", arguments);
  }

  static JsonObject results(String session, String turnId) {
    Http.Answer a = agent().get("/api/sessions/" + session + "/turns/" + turnId + "?wait=20");
    assertThat(a.status()).as(a.body()).isEqualTo(200);
    return a.json();
  }

  static JsonObject awaitPending(Http who, String session) {
    long deadline = System.currentTimeMillis() + 15_000;
    while (System.currentTimeMillis() < deadline) {
      for (Object o : who.get("/api/approvals").json().getJsonArray("approvals")) {
        JsonObject r = (JsonObject) o;
        if (session.equals(r.getString("sessionId"))) {
          return r;
        }
      }
      sleep(100);
    }
    throw new AssertionError("no pending approval for " + session);
  }

  static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void healthNeedsNoLoginAndReportsRedisAndJournal() {
    Http.Answer a = Http.anonymous(base).get("/health");
    assertThat(a.status()).isEqualTo(200);
    assertThat(a.json()).isEqualTo(new JsonObject().put("status", "UP").put("redis", "reachable")
        .put("journal", "writable"));
  }

  @Test
  void everythingElseNeedsALoginOrAValidToken() {
    assertThat(Http.anonymous(base).get("/api/approvals").status()).isEqualTo(401);
    assertThat(Http.anonymous(base).get("/metrics").status()).isEqualTo(401);
    assertThat(Http.bearer(base, "rt_wrong").get("/api/agents").status()).isEqualTo(401);
    Http.Answer page = Http.anonymous(base).get("/");
    assertThat(page.status()).isEqualTo(302);
    assertThat(page.raw().headers().firstValue("Location")).contains("/login.html");
    assertThat(Http.anonymous(base).post("/login", new JsonObject().put("name", "ana").put("password", "nope"))
        .status()).isEqualTo(401);
  }

  @Test
  void theLoginPageAndItsAssetsArePublicButTheDashboardIsNot() {
    Http anon = Http.anonymous(base);
    Http.Answer page = anon.get("/login.html");
    assertThat(page.status()).isEqualTo(200);
    assertThat(page.body()).contains("<form");
    Http.Answer css = anon.get("/assets/app.css");
    assertThat(css.raw().headers().firstValue("Content-Type").orElse("")).startsWith("text/css");
    assertThat(css.body()).contains(".badge");
    assertThat(anon.get("/assets/login.js").raw().headers().firstValue("Content-Type").orElse(""))
        .startsWith("text/javascript");
    assertThat(anon.get("/assets/app.js").status()).isEqualTo(302);
    assertThat(anon.get("/index.html").status()).isEqualTo(302);
    assertThat(page.raw().headers().firstValue("Content-Security-Policy").orElse("")).contains("script-src 'self'");
    Http ana = Http.login(base, "ana", ShopRuntime.PASSWORD);
    assertThat(ana.get("/").body()).contains("/assets/app.js");
    assertThat(ana.get("/assets/app.js").body()).doesNotContain("innerHTML =");
  }

  @Test
  void agentSubmitsATurnAndReadsTheSameResultsAgainIdempotently() {
    String s = session();
    JsonObject body = turn("t1", call("look_up_order", new JsonObject().put("id", "A-1")));
    Http.Answer first = agent().post("/api/sessions/" + s + "/turns", body);
    assertThat(first.status()).as(first.body()).isIn(200, 202);
    JsonObject done = results(s, "t1");
    assertThat(done.getString("status")).isEqualTo("completed");
    JsonObject record = done.getJsonObject("results").getJsonArray("results").getJsonObject(0);
    assertThat(record.getString("outcome")).isEqualTo("succeeded");
    assertThat(record.getJsonObject("result").getString("order")).isEqualTo("A-1");

    Http.Answer again = agent().post("/api/sessions/" + s + "/turns", body);
    assertThat(again.status()).isEqualTo(200);
    assertThat(again.json().getString("status")).isEqualTo("completed");
    assertThat(again.json().getJsonObject("results")).isEqualTo(done.getJsonObject("results"));
  }

  @Test
  void resultsArePendingWhileATurnWaitsForApproval() {
    String s = session();
    Http.Answer a = agent().post("/api/sessions/" + s + "/turns",
        turn("t1", call("refund_order", new JsonObject().put("order", "B-2"))));
    assertThat(a.status()).isEqualTo(202);
    assertThat(a.json().getString("status")).isEqualTo("accepted");
    assertThat(a.json().getString("resultsUrl")).isEqualTo("/api/sessions/" + s + "/turns/t1");
    awaitPending(Http.login(base, "ana", ShopRuntime.PASSWORD), s);
    Http.Answer pending = agent().get("/api/sessions/" + s + "/turns/t1");
    assertThat(pending.status()).isEqualTo(202);
    assertThat(pending.json().getString("status")).isEqualTo("pending");
  }

  @Test
  void malformedTurnsAndUnknownAgentsAreRefusedWithCodes() {
    String s = session();
    Http.Answer bad = agent().postRaw("/api/sessions/" + s + "/turns", "{not json");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.json().getString("code")).isEqualTo("INVALID_REQUEST");
    Http.Answer noCalls = agent().post("/api/sessions/" + s + "/turns",
        new JsonObject().put("agent", "shop").put("turn", new JsonObject().put("turnId", "t1")));
    assertThat(noCalls.status()).isEqualTo(400);
    assertThat(noCalls.json().getString("message")).contains("calls");
    Http.Answer unknown = agent().post("/api/sessions/" + s + "/turns",
        turn("t1", call("look_up_order", new JsonObject())).put("agent", "nobody"));
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.json().getString("code")).isEqualTo("UNKNOWN_AGENT");
  }

  @Test
  void aTurnWithAnEmptyListOfCallsIsRefusedAndCreatesNoSession() {
    String s = session();
    Http.Answer empty = agent().post("/api/sessions/" + s + "/turns", turn("t1").put("agent", "shop"));
    assertThat(empty.status()).isEqualTo(400);
    assertThat(empty.json().getString("code")).isEqualTo("INVALID_REQUEST");
    assertThat(empty.json().getString("message")).contains("'turn.calls' is empty");
    assertThat(agent().get("/api/sessions/" + s + "/turns/t1").status()).isEqualTo(404);
  }

  @Test
  void reusingATurnIdForOtherCallsIsAConflict() {
    String s = session();
    agent().post("/api/sessions/" + s + "/turns", turn("t1", call("look_up_order", new JsonObject().put("id", "1"))));
    results(s, "t1");
    Http.Answer reused = agent().post("/api/sessions/" + s + "/turns",
        turn("t1", call("look_up_order", new JsonObject().put("id", "2"))));
    assertThat(reused.status()).as(reused.body()).isEqualTo(409);
  }

  /** Submits turn t1 of session {@code s}, a refund with these arguments, and waits until {@code reader} sees it pending. */
  private static JsonObject refundAwaitingApproval(String s, JsonObject arguments, Http reader) {
    agent().post("/api/sessions/" + s + "/turns", turn("t1", call("refund_order", arguments)));
    return awaitPending(reader, s);
  }

  @Test
  void approverApprovesAndIsRecordedByLoginNameNotByTheBody() {
    String s = session();
    Http ana = Http.login(base, "ana", ShopRuntime.PASSWORD);
    JsonObject request = refundAwaitingApproval(s, new JsonObject().put("order", "C-3"), ana);
    assertThat(request.getString("tool")).isEqualTo("refund_order");
    assertThat(request.getString("effectClass")).isEqualTo("non_idempotent_write");
    assertThat(request.getString("askedBecause")).contains("approval required");
    assertThat(request.getJsonObject("arguments")).isEqualTo(new JsonObject().put("order", "C-3"));

    String path = "/api/approvals/" + s + "/" + request.getString("callId");
    Http.Answer ok = ana.post(path, new JsonObject().put("argumentsHash", request.getString("argumentsHash"))
        .put("approved", true).put("reason", "customer verified").put("approver", "mallory"));
    assertThat(ok.status()).as(ok.body()).isEqualTo(200);
    assertThat(ok.json().getString("approver")).isEqualTo("ana");

    JsonObject record = results(s, "t1").getJsonObject("results").getJsonArray("results").getJsonObject(0);
    assertThat(record.getString("outcome")).isEqualTo("succeeded");
    assertThat(record.getJsonObject("approval").getString("approver")).isEqualTo("ana");
    assertThat(record.getJsonObject("approval").getString("reason")).isEqualTo("customer verified");

    Http.Answer twice = ana.post(path, new JsonObject().put("argumentsHash", request.getString("argumentsHash"))
        .put("approved", true));
    assertThat(twice.status()).isEqualTo(409);
    assertThat(twice.json().getString("code")).isEqualTo("ALREADY_DECIDED");
  }

  @Test
  void aDecisionForOtherArgumentsIsStaleAndTheWriteStillWaits() {
    String s = session();
    Http ana = Http.login(base, "ana", ShopRuntime.PASSWORD);
    JsonObject request = refundAwaitingApproval(s, new JsonObject().put("order", "D-4"), ana);
    Http.Answer stale = ana.post("/api/approvals/" + s + "/" + request.getString("callId"),
        new JsonObject().put("argumentsHash", "0".repeat(64)).put("approved", true));
    assertThat(stale.status()).isEqualTo(409);
    assertThat(stale.json().getString("code")).isEqualTo("STALE_DECISION");
    assertThat(awaitPending(ana, s).getString("callId")).isEqualTo(request.getString("callId"));
    Http.Answer unknown = ana.post("/api/approvals/" + s + "/call_000000000000000000000000",
        new JsonObject().put("argumentsHash", request.getString("argumentsHash")).put("approved", true));
    assertThat(unknown.status()).isEqualTo(404);
  }

  @Test
  void rejectionNeedsAReasonAndTheWriteNeverRuns() {
    String s = session();
    JsonObject args = new JsonObject().put("order", "E-5-" + s);
    Http ana = Http.login(base, "ana", ShopRuntime.PASSWORD);
    JsonObject request = refundAwaitingApproval(s, args, ana);
    String path = "/api/approvals/" + s + "/" + request.getString("callId");
    Http.Answer noReason = ana.post(path, new JsonObject().put("argumentsHash", request.getString("argumentsHash"))
        .put("approved", false));
    assertThat(noReason.status()).isEqualTo(400);
    Http.Answer rejected = ana.post(path, new JsonObject().put("argumentsHash", request.getString("argumentsHash"))
        .put("approved", false).put("reason", "amount too high"));
    assertThat(rejected.status()).isEqualTo(200);
    JsonObject record = results(s, "t1").getJsonObject("results").getJsonArray("results").getJsonObject(0);
    assertThat(record.getString("outcome")).isEqualTo("failed");
    assertThat(record.getString("error")).contains("amount too high");
    assertThat(SHOP.runtime().writes).doesNotContain(args);
  }

  @Test
  void viewersAndAgentsCannotDecide() {
    String s = session();
    Http vic = Http.login(base, "vic", ShopRuntime.PASSWORD);
    JsonObject request = refundAwaitingApproval(s, new JsonObject().put("order", "F-6"), vic);
    JsonObject body = new JsonObject().put("argumentsHash", request.getString("argumentsHash")).put("approved", true);
    String path = "/api/approvals/" + s + "/" + request.getString("callId");
    Http.Answer viewer = vic.post(path, body);
    assertThat(viewer.status()).isEqualTo(403);
    assertThat(viewer.json().getString("code")).isEqualTo("FORBIDDEN");
    assertThat(agent().post(path, body).status()).isEqualTo(403);
    assertThat(awaitPending(vic, s).getString("callId")).isEqualTo(request.getString("callId"));
  }

  @Test
  void browserSessionWritesNeedTheCsrfTokenButBearerCallsDoNot() {
    String s = session();
    Http ana = Http.login(base, "ana", ShopRuntime.PASSWORD);
    JsonObject request = refundAwaitingApproval(s, new JsonObject().put("order", "G-7"), ana);
    Http.Answer forged = ana.withoutCsrf().post("/api/approvals/" + s + "/" + request.getString("callId"),
        new JsonObject().put("argumentsHash", request.getString("argumentsHash")).put("approved", true));
    assertThat(forged.status()).isEqualTo(403);
    assertThat(forged.json().getString("code")).isEqualTo("CSRF");
    assertThat(awaitPending(Http.login(base, "ana", ShopRuntime.PASSWORD), s)).isNotNull();
  }

  @Test
  void aLoginPostedFromAnotherSiteIsRefused() throws Exception {
    HttpRequest req = HttpRequest.newBuilder(URI.create(base + "/login")).header("Content-Type", "application/json")
        .header("Origin", "https://evil.example")
        .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("name", "ana")
            .put("password", ShopRuntime.PASSWORD).encode())).build();
    HttpResponse<String> r = agent().client().send(req, HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(r.headers().allValues("Set-Cookie")).noneMatch(c -> c.startsWith("ratchet.session="));
  }

  @Test
  void loginCookieIsHttpOnlyAndSameSiteAndMeRevealsNoSecret() {
    Http.Answer login = Http.anonymous(base).post("/login",
        new JsonObject().put("name", "ana").put("password", ShopRuntime.PASSWORD));
    String cookie = login.raw().headers().allValues("Set-Cookie").stream()
        .filter(c -> c.startsWith("ratchet.session=")).findFirst().orElseThrow();
    assertThat(cookie).containsIgnoringCase("HttpOnly").containsIgnoringCase("SameSite=Strict");
    Http.Answer me = Http.login(base, "ana", ShopRuntime.PASSWORD).get("/api/me");
    assertThat(me.json().getString("name")).isEqualTo("ana");
    assertThat(me.json().getString("role")).isEqualTo("approver");
    assertThat(me.body()).doesNotContain("pbkdf2").doesNotContain(PasswordHash.hashToken(ShopRuntime.AGENT_TOKEN));
  }

  @Test
  void oversizedBodiesAre413WithAJsonError() {
    String big = "{\"agent\":\"shop\",\"pad\":\"" + "x".repeat(100 * 1024) + "\"}";
    Http.Answer a = agent().postRaw("/api/sessions/" + session() + "/turns", big);
    assertThat(a.status()).isEqualTo(413);
    assertThat(a.json().getString("code")).isEqualTo("PAYLOAD_TOO_LARGE");
  }

  @Test
  void reconcilingAnUnknownOutcomeIsJournaledWithWhoAndTheModelSeesItNextTurn() {
    String s = session();
    agent().post("/api/sessions/" + s + "/turns", turn("t1", call("charge_card", new JsonObject().put("cents", 500))));
    JsonObject record = results(s, "t1").getJsonObject("results").getJsonArray("results").getJsonObject(0);
    assertThat(record.getString("outcome")).isEqualTo("outcome_unknown");
    String path = "/api/sessions/" + s + "/calls/" + record.getString("callId") + "/reconcile";
    JsonObject body = new JsonObject().put("outcome", "succeeded").put("note", "charge ch_1 found at the provider");
    assertThat(Http.login(base, "vic", ShopRuntime.PASSWORD).post(path, body).status()).isEqualTo(403);
    Http.Answer done = Http.login(base, "ana", ShopRuntime.PASSWORD).post(path, body.copy().put("by", "mallory"));
    assertThat(done.status()).as(done.body()).isEqualTo(200);
    assertThat(done.json().getJsonObject("call").getString("reconciledBy")).isEqualTo("ana");
    Http.Answer again = Http.login(base, "ana", ShopRuntime.PASSWORD).post(path, body);
    assertThat(again.status()).isEqualTo(409);

    JsonObject call = Http.login(base, "vic", ShopRuntime.PASSWORD).get("/api/sessions/" + s).json()
        .getJsonArray("turns").getJsonObject(0).getJsonArray("calls").getJsonObject(0);
    assertThat(call.getString("status")).isEqualTo("succeeded");
    assertThat(call.getJsonObject("reconciled").getString("by")).isEqualTo("ana");
    assertThat(call.getJsonObject("reconciled").getString("from")).isEqualTo("outcome_unknown");

    agent().post("/api/sessions/" + s + "/turns", turn("t2", call("look_up_order", new JsonObject().put("id", "x"))));
    JsonObject next = results(s, "t2");
    JsonArray reconciled = next.getJsonArray("reconciled");
    assertThat(reconciled).hasSize(1);
    assertThat(reconciled.getJsonObject(0).getString("callId")).isEqualTo(record.getString("callId"));
    assertThat(reconciled.getJsonObject(0).getString("outcome")).isEqualTo("succeeded");
    assertThat(reconciled.getJsonObject(0).getString("reconciledBy")).isEqualTo("ana");
    assertThat(results(s, "t1").getJsonArray("reconciled")).isEmpty();
  }

  @Test
  void sessionsAreListedRecentFirstAndTheTimelineShowsTurnsCallsAndApprovals() {
    String older = session();
    String newer = session();
    agent().post("/api/sessions/" + older + "/turns", turn("t1", call("look_up_order", new JsonObject())));
    results(older, "t1");
    sleep(5);
    agent().post("/api/sessions/" + newer + "/turns", turn("t1",
        call("look_up_order", new JsonObject().put("id", "1")),
        call("charge_card", new JsonObject().put("cents", 1)),
        call("refund_order", new JsonObject().put("order", "1"))));
    results(newer, "t1");
    Http vic = Http.login(base, "vic", ShopRuntime.PASSWORD);
    JsonArray list = vic.get("/api/sessions?offset=0&limit=2").json().getJsonArray("sessions");
    assertThat(list.getJsonObject(0).getString("sessionId")).isEqualTo(newer);
    assertThat(list.getJsonObject(1).getString("sessionId")).isEqualTo(older);
    assertThat(list.getJsonObject(0).getString("agent")).isEqualTo("shop");

    JsonObject timeline = vic.get("/api/sessions/" + newer).json();
    JsonObject t1 = timeline.getJsonArray("turns").getJsonObject(0);
    assertThat(t1.getString("status")).isEqualTo("completed");
    assertThat(t1.getLong("durationMs")).isNotNull();
    JsonArray calls = t1.getJsonArray("calls");
    assertThat(calls.getJsonObject(0).getString("status")).isEqualTo("succeeded");
    assertThat(calls.getJsonObject(1).getString("status")).isEqualTo("outcome_unknown");
    assertThat(calls.getJsonObject(1).getJsonArray("attempts")).isNotEmpty();
    assertThat(calls.getJsonObject(2).getString("status")).isEqualTo("failed");
    assertThat(calls.getJsonObject(2).getBoolean("skipped")).isTrue();
    assertThat(calls.getJsonObject(2).getString("error")).startsWith("the tool did not run, so it is safe to call again");
    assertThat(vic.get("/api/sessions/nope-" + newer).status()).isEqualTo(404);
  }

  @Test
  void eventStreamReplaysTheJournalThenStreamsLiveSteps() throws Exception {
    String s = session();
    agent().post("/api/sessions/" + s + "/turns", turn("t1", call("look_up_order", new JsonObject())));
    results(s, "t1");
    HttpRequest req = HttpRequest.newBuilder(URI.create(base + "/api/sessions/" + s + "/events"))
        .header("Authorization", "Bearer " + ShopRuntime.AGENT_TOKEN).timeout(Duration.ofSeconds(30)).GET().build();
    HttpResponse<InputStream> r = agent().client().send(req, HttpResponse.BodyHandlers.ofInputStream());
    assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
    try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
      assertThat(readUntil(in, "event: turn.completed")).contains("event: turn.submitted");
      agent().post("/api/sessions/" + s + "/turns", turn("t2", call("look_up_order", new JsonObject())));
      String live = readUntil(in, "event: turn.completed");
      assertThat(live).contains("\"turn\":\"t2\"").doesNotContain("\"turn\":\"t1\"");
    }
  }

  @Test
  void eventStreamResumedWithLastEventIdContinuesWithTheNextEventEvenInsideAStep() throws Exception {
    String s = session();
    agent().post("/api/sessions/" + s + "/turns", turn("t1", call("look_up_order", new JsonObject()),
        call("look_up_order", new JsonObject().put("id", "A-2"))));
    results(s, "t1");
    List<String> ids = eventIds(s, null);
    // the two reads' outcomes and the turn's completion are one step: ids inside it carry the event's index
    assertThat(ids).anyMatch(id -> id.contains("."));
    for (int i = 0; i < ids.size() - 1; i++) {
      assertThat(eventIds(s, ids.get(i))).as("after %s", ids.get(i)).isEqualTo(ids.subList(i + 1, ids.size()));
    }
  }

  /** The ids of the session's events up to its first turn.completed, from after {@code lastEventId}. */
  private List<String> eventIds(String session, String lastEventId) throws Exception {
    HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(base + "/api/sessions/" + session + "/events"))
        .header("Authorization", "Bearer " + ShopRuntime.AGENT_TOKEN).timeout(Duration.ofSeconds(30)).GET();
    if (lastEventId != null) {
      req.header("Last-Event-ID", lastEventId);
    }
    HttpResponse<InputStream> r = agent().client().send(req.build(), HttpResponse.BodyHandlers.ofInputStream());
    List<String> ids = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.startsWith("id: ")) {
          ids.add(line.substring(4));
        } else if (line.equals("event: turn.completed")) {
          return ids;
        }
      }
    }
    throw new AssertionError("stream ended before turn.completed: " + ids);
  }

  private static String readUntil(BufferedReader in, String marker) throws Exception {
    StringBuilder seen = new StringBuilder();
    String line;
    while ((line = in.readLine()) != null) {
      seen.append(line).append('\n');
      if (line.equals(marker)) {
        seen.append(in.readLine()).append('\n');
        return seen.toString();
      }
    }
    throw new AssertionError("stream ended before " + marker + ": " + seen);
  }

  @Test
  void catalogueListsToolsWithSourceEffectClassAndApprovalRule() {
    JsonArray agents = agent().get("/api/agents").json().getJsonArray("agents");
    assertThat(agents.getJsonObject(0).getString("name")).isEqualTo("shop");
    // the list itself says, for every agent, where it was declared and each tool's rules in words
    JsonObject shopAgent = agents.getJsonObject(0);
    assertThat(shopAgent.getString("origin")).isEqualTo("java");
    assertThat(shopAgent.getJsonArray("sources").getJsonObject(0).getString("source")).isEqualTo("shop-tools");
    assertThat(shopAgent.getJsonArray("sources").getJsonObject(0).getString("status")).isEqualTo("local");
    JsonObject listed = shopAgent.getJsonArray("catalogue").stream().map(JsonObject.class::cast)
        .filter(t -> "refund_order".equals(t.getString("name"))).findFirst().orElseThrow();
    assertThat(listed.getString("effectClass")).isEqualTo("non_idempotent_write");
    assertThat(listed.getString("approval")).startsWith("always");
    assertThat(listed.getString("origin")).isEqualTo("java");
    JsonArray tools = Http.login(base, "vic", ShopRuntime.PASSWORD).get("/api/agents/shop/tools").json()
        .getJsonArray("tools");
    JsonObject refund = tools.stream().map(JsonObject.class::cast)
        .filter(t -> "refund_order".equals(t.getString("name"))).findFirst().orElseThrow();
    assertThat(refund.getString("effectClass")).isEqualTo("non_idempotent_write");
    assertThat(refund.getString("toolSource")).isEqualTo("shop-tools");
    assertThat(refund.getString("approval")).startsWith("always");
    assertThat(agent().get("/api/agents/nobody/tools").status()).isEqualTo(404);
  }

  @Test
  void metricsArePrometheusTextWithCallsByOutcomeAndLatencies() {
    String s = session();
    agent().post("/api/sessions/" + s + "/turns", turn("t1", call("look_up_order", new JsonObject())));
    results(s, "t1");
    Http.Answer m = Http.login(base, "vic", ShopRuntime.PASSWORD).get("/metrics");
    assertThat(m.status()).isEqualTo(200);
    assertThat(m.raw().headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
    assertThat(m.body()).containsPattern("ratchet_calls_total\\{[^}]*outcome=\"succeeded\"")
        .contains("ratchet_call_duration_seconds_bucket").contains("ratchet_turn_duration_seconds_count")
        .contains("ratchet_journal_append_duration_seconds_count{op=\"submit\"")
        .contains("ratchet_approvals_pending").contains("ratchet_sessions_active")
        .contains("ratchet_journal_redis_last_fork_seconds").contains("ratchet_journal_redis_aof_rewriting")
        .contains("ratchet_journal_redis_used_memory_bytes");
  }
}
