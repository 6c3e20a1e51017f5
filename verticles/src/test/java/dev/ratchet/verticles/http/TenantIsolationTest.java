package dev.ratchet.verticles.http;

import dev.ratchet.runtime.journal.ClaimedSession;
import dev.ratchet.runtime.journal.TurnSubmission;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.agent.ModelResponse;
import dev.ratchet.runtime.agent.ScriptedModel;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.verticles.impl.RatchetNodeImpl;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tenants over the real HTTP API: two agent tokens of tenants a and b, people limited to one
 * tenant, an operator who sees every tenant, and the four-eyes rule on.
 */
class TenantIsolationTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  static final String TOKEN_A = "rt_tenant-a-isolation-0123456789";
  static final String TOKEN_B = "rt_tenant-b-isolation-0123456789";
  static final String PASSWORD = ShopRuntime.PASSWORD;

  static ShopRuntime shop;
  static String base;
  static final List<JsonObject> chatWrites = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() {
    String hash = PasswordHash.hashPassword(PASSWORD.toCharArray(), 1_000);
    HttpOptions http = HttpOptions.create().fourEyes(true)
        .token("bot-a", Role.AGENT, PasswordHash.hashToken(TOKEN_A), "tenant-a")
        .token("bot-b", Role.AGENT, PasswordHash.hashToken(TOKEN_B), "tenant-b")
        // alice works for tenant a: her own sessions belong to it
        .user("alice", Role.APPROVER, hash, "tenant-a")
        .user("bea", Role.APPROVER, hash, null, List.of("tenant-a"))
        .user("bob", Role.APPROVER, hash, null, List.of("tenant-b"))
        .user("olga", Role.APPROVER, hash, null, List.of("*"))
        .user("vic", Role.VIEWER, hash);
    shop = new ShopRuntime(REDIS, http);
    base = shop.baseUrl();
    FunctionToolSource tools = FunctionToolSource.create("chat-tools")
        .tool(FunctionToolSource.define("refund_order", EffectClass.NON_IDEMPOTENT_WRITE)
            .description("Refund an order").approval(ApprovalRule.always())
            .handler(inv -> {
              chatWrites.add(inv.arguments());
              return Future.succeededFuture(new JsonObject().put("refunded", true));
            }));
    // asks for one refund per user message, then answers
    ScriptedModel model = ScriptedModel.from(request -> request.sinceLastUser().isEmpty()
        ? ModelResponse.toolCalls(new ToolCall("refund_order", new JsonObject().put("order", request.lastUserText()),
            "c1"))
        : ModelResponse.text("done"));
    await(shop.ratchet.register(AgentDefinition.builder("chat").toolSource(tools).model(model).build()));
  }

  @AfterAll
  static void stop() {
    shop.close();
  }

  static Http botA() {
    return Http.bearer(base, TOKEN_A);
  }

  static Http botB() {
    return Http.bearer(base, TOKEN_B);
  }

  static Http person(String name) {
    return Http.login(base, name, PASSWORD);
  }

  static String newId(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** The answer every route gives for a session id that was never used. */
  static JsonObject missing(String sessionId) {
    return new JsonObject().put("code", "UNKNOWN_SESSION").put("message", "no session '" + sessionId + "'");
  }

  /** A session of tenant a with a completed read turn and a write that waits for approval. */
  static String tenantASessionWithAPendingWrite() {
    String s = newId("a");
    Http.Answer read = botA().post("/api/sessions/" + s + "/turns", HttpApiTest.turn("t1",
        HttpApiTest.call("look_up_order", new JsonObject().put("id", "A-1"))));
    assertThat(read.status()).as(read.body()).isIn(200, 202);
    assertThat(botA().get("/api/sessions/" + s + "/turns/t1?wait=20").status()).isEqualTo(200);
    Http.Answer write = botA().post("/api/sessions/" + s + "/turns", HttpApiTest.turn("t2",
        HttpApiTest.call("refund_order", new JsonObject().put("order", "A-1"))));
    assertThat(write.status()).as(write.body()).isEqualTo(202);
    HttpApiTest.awaitPending(person("olga"), s);
    return s;
  }

  static List<String> approvalSessions(Http who) {
    Http.Answer a = who.get("/api/approvals");
    assertThat(a.status()).as(a.body()).isEqualTo(200);
    List<String> ids = new ArrayList<>();
    a.json().getJsonArray("approvals").forEach(o -> ids.add(((JsonObject) o).getString("sessionId")));
    return ids;
  }

  /** Every session a principal is shown, following {@code next} from the first page. */
  static List<String> allListed(Http who, int limit) {
    List<String> ids = new ArrayList<>();
    String page = "/api/sessions?limit=" + limit;
    for (int i = 0; page != null && i < 1_000; i++) {
      Http.Answer a = who.get(page);
      assertThat(a.status()).as(a.body()).isEqualTo(200);
      JsonArray sessions = a.json().getJsonArray("sessions");
      assertThat(sessions.size()).isLessThanOrEqualTo(limit);
      sessions.forEach(o -> ids.add(((JsonObject) o).getString("sessionId")));
      page = a.json().getString("next");
    }
    return ids;
  }

  @Test
  void anotherCallersSessionAnswersEveryRouteExactlyLikeAMissingOne() {
    String s = tenantASessionWithAPendingWrite();
    String never = newId("never");
    JsonObject request = HttpApiTest.awaitPending(person("olga"), s);
    String callId = request.getString("callId");
    int events = await(shop.ratchet.journal().events(s, null, 10_000)).size();
    Http bob = person("bob");
    JsonObject decision = new JsonObject().put("argumentsHash", request.getString("argumentsHash"))
        .put("approved", true);
    JsonObject reconcile = new JsonObject().put("outcome", "succeeded").put("note", "checked");

    for (String id : List.of(s, never)) {
      Map<String, Supplier<Http.Answer>> routes = new LinkedHashMap<>();
      routes.put("results", () -> botB().get("/api/sessions/" + id + "/turns/t1"));
      routes.put("long poll", () -> botB().get("/api/sessions/" + id + "/turns/t1?wait=1"));
      routes.put("events", () -> botB().getOrStream("/api/sessions/" + id + "/events"));
      routes.put("messages", () -> botB().get("/api/sessions/" + id + "/messages"));
      routes.put("timeline", () -> bob.get("/api/sessions/" + id));
      routes.put("reconcile", () -> bob.post("/api/sessions/" + id + "/calls/" + callId + "/reconcile", reconcile));
      routes.put("decide", () -> bob.post("/api/approvals/" + id + "/" + callId, decision));
      routes.forEach((route, call) -> {
        Http.Answer a = call.get();
        assertThat(a.status()).as(route + " " + id + ": " + a.body()).isEqualTo(404);
        assertThat(a.json()).as(route + " " + id).isEqualTo(missing(id));
      });
    }
    // a turn or a message into it is refused in the same words, and nothing is journaled
    Http.Answer submit = botB().post("/api/sessions/" + s + "/turns", HttpApiTest.turn("t1",
        HttpApiTest.call("look_up_order", new JsonObject().put("id", "A-1"))));
    assertThat(submit.status()).isEqualTo(404);
    assertThat(submit.json()).isEqualTo(missing(s));
    Http.Answer message = botB().post("/api/sessions/" + s + "/messages", new JsonObject().put("agent", "shop")
        .put("text", "hello"));
    assertThat(message.status()).isEqualTo(404);
    assertThat(message.json()).isEqualTo(missing(s));
    assertThat(await(shop.ratchet.journal().events(s, null, 10_000))).hasSize(events);
    // the write still waits, undecided, and tenant a still reads its session
    assertThat(HttpApiTest.awaitPending(person("alice"), s).getString("callId")).isEqualTo(callId);
    assertThat(shop.writes).noneMatch(w -> "A-1".equals(w.getString("order")));
    assertThat(botA().get("/api/sessions/" + s + "/turns/t1").status()).isEqualTo(200);
    assertThat(botA().get("/api/sessions/" + s + "/messages").status()).isEqualTo(200);
    assertThat(person("alice").get("/api/sessions/" + s).json().getString("caller")).isEqualTo("tenant-a");
  }

  @Test
  void listsAndTheInboxShowOnlyTheTenantsOwnSessionsAndTheOperatorSeesAll() {
    String a = tenantASessionWithAPendingWrite();
    String b = newId("b");
    assertThat(botB().post("/api/sessions/" + b + "/turns", HttpApiTest.turn("t1",
        HttpApiTest.call("refund_order", new JsonObject().put("order", "B-1")))).status()).isEqualTo(202);
    HttpApiTest.awaitPending(person("olga"), b);
    String noCaller = newId("java");
    shop.ratchet.submit("shop", noCaller, Turn.of("t1", new ToolCall("refund_order",
        new JsonObject().put("order", "J-1"))));
    HttpApiTest.awaitPending(person("olga"), noCaller);

    assertThat(approvalSessions(person("alice"))).contains(a).doesNotContain(b, noCaller);
    assertThat(approvalSessions(person("bea"))).contains(a).doesNotContain(b, noCaller);
    assertThat(approvalSessions(person("bob"))).contains(b).doesNotContain(a, noCaller);
    assertThat(approvalSessions(person("vic"))).isEmpty();
    assertThat(approvalSessions(person("olga"))).contains(a, b, noCaller);

    assertThat(allListed(person("alice"), 50)).contains(a).doesNotContain(b, noCaller);
    assertThat(allListed(person("bob"), 50)).contains(b).doesNotContain(a, noCaller);
    assertThat(allListed(person("vic"), 50)).isEmpty();
    assertThat(allListed(person("olga"), 50)).contains(a, b, noCaller);
    // a session created without a caller is an operator's only
    assertThat(person("alice").get("/api/sessions/" + noCaller).json()).isEqualTo(missing(noCaller));
    assertThat(person("olga").get("/api/sessions/" + noCaller).status()).isEqualTo(200);
    assertThat(person("olga").get("/api/sessions/" + b).json().getString("caller")).isEqualTo("tenant-b");

    // the figures in /metrics cover every tenant: operators only
    assertThat(person("olga").get("/metrics").status()).isEqualTo(200);
    Http.Answer metrics = person("alice").get("/metrics");
    assertThat(metrics.status()).isEqualTo(403);
    assertThat(metrics.json().getString("code")).isEqualTo("FORBIDDEN");
    assertThat(person("alice").get("/api/me").json().getJsonArray("tenants")).containsExactly("tenant-a");
    assertThat(person("olga").get("/api/me").json().getString("tenants")).isEqualTo("*");
  }

  @Test
  void aTenantsRequestReachesItsInboxEvenBehindAThousandOfAnotherTenant() {
    RedisJournal journal = ((RatchetNodeImpl) shop.ratchet).redisJournal();
    String a = tenantASessionWithAPendingWrite();
    String flood = newId("flood");
    try {
      // then tenant b's requests, journaled as the oldest of all: the first thousand of the shared index
      List<Future<String>> requested = new ArrayList<>();
      for (int i = 0; i < 1_000; i++) {
        String s = flood + "-" + i;
        Turn t = Turn.of("t1", new ToolCall("refund_order", new JsonObject().put("order", "F-" + i)));
        long at = i + 1;
        requested.add(journal.claim(s,
            "flood-node").map(ClaimedSession::epoch).compose(epoch -> journal.submitTurn(new TurnSubmission(s,
                epoch, "shop", "tenant-b", null, t, null, null, false,
                null)).compose(v -> journal.approvalRequested(epoch, new ApprovalRequest("shop", s, "t1",
            t.callId(s, 0), "refund_order", EffectClass.NON_IDEMPOTENT_WRITE, t.calls().get(0).arguments(), "h",
            "approval required by tool", at, 0)))));
      }
      await(Future.all(requested));

      assertThat(approvalSessions(person("alice"))).contains(a).noneMatch(id -> id.startsWith(flood));
      assertThat(approvalSessions(person("bob"))).hasSize(1_000).allMatch(id -> id.startsWith(flood));
    } finally {
      await(journal.send(Request.cmd(Command.ZREMRANGEBYSCORE).arg(REDIS.keyPrefix() + ":approvals").arg(1)
          .arg(1_000)));
    }
  }

  @Test
  void pagingThroughATenantsSessionsShowsEachOnceInRecentOrderAmongOtherTenants() {
    List<String> mine = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      for (int j = 0; j < 3; j++) {
        String other = newId("other");
        assertThat(botB().post("/api/sessions/" + other + "/turns", HttpApiTest.turn("t1",
            HttpApiTest.call("look_up_order", new JsonObject().put("id", "x")))).status()).isIn(200, 202);
      }
      String s = newId("mine");
      assertThat(botA().post("/api/sessions/" + s + "/turns", HttpApiTest.turn("t1",
          HttpApiTest.call("look_up_order", new JsonObject().put("id", "x")))).status()).isIn(200, 202);
      mine.add(0, s);
      HttpApiTest.sleep(5);
    }
    List<String> listed = allListed(person("bea"), 2);
    assertThat(listed).doesNotHaveDuplicates();
    assertThat(listed.stream().filter(mine::contains).toList()).containsExactlyElementsOf(mine);
    assertThat(listed).allMatch(id -> !id.startsWith("other-"));
    // the first page is full: the filter runs while paging, not after
    assertThat(person("bea").get("/api/sessions?limit=2").json().getJsonArray("sessions")).hasSize(2);
  }

  @Test
  void fourEyesRefusesADecisionByTheSessionsCreatorAndAllowsAnotherApprover() {
    String s = newId("chat");
    Http alice = person("alice");
    Http.Answer sent = alice.post("/api/sessions/" + s + "/messages", new JsonObject().put("agent", "chat")
        .put("text", "C-7"));
    assertThat(sent.status()).as(sent.body()).isIn(200, 202);
    JsonObject request = HttpApiTest.awaitPending(alice, s);
    JsonObject approve = new JsonObject().put("argumentsHash", request.getString("argumentsHash"))
        .put("approved", true);

    Http.Answer own = alice.post("/api/approvals/" + s + "/" + request.getString("callId"), approve);
    assertThat(own.status()).as(own.body()).isEqualTo(403);
    assertThat(own.json().getString("code")).isEqualTo("FOUR_EYES");
    assertThat(own.json().getString("message")).contains("alice").contains("http.fourEyes");
    assertThat(HttpApiTest.awaitPending(alice, s).getString("callId")).isEqualTo(request.getString("callId"));
    assertThat(chatWrites).noneMatch(w -> "C-7".equals(w.getString("order")));
    assertThat(person("bea").get("/api/sessions/" + s).json().getString("creator")).isEqualTo("alice");

    Http.Answer other = person("bea").post("/api/approvals/" + s + "/" + request.getString("callId"), approve);
    assertThat(other.status()).as(other.body()).isEqualTo(200);
    assertThat(other.json().getString("approver")).isEqualTo("bea");
    long deadline = System.currentTimeMillis() + 15_000;
    while (chatWrites.stream().noneMatch(w -> "C-7".equals(w.getString("order")))
        && System.currentTimeMillis() < deadline) {
      HttpApiTest.sleep(50);
    }
    assertThat(chatWrites).filteredOn(w -> "C-7".equals(w.getString("order"))).hasSize(1);

    // a session alice did not create (tenant a's agent token did): the rule does not stop her
    String agents = tenantASessionWithAPendingWrite();
    JsonObject theirs = HttpApiTest.awaitPending(alice, agents);
    Http.Answer decided = alice.post("/api/approvals/" + agents + "/" + theirs.getString("callId"),
        new JsonObject().put("argumentsHash", theirs.getString("argumentsHash")).put("approved", false)
            .put("reason", "not today"));
    assertThat(decided.status()).as(decided.body()).isEqualTo(200);
    assertThat(decided.json().getString("status")).isEqualTo("rejected");
  }
}

