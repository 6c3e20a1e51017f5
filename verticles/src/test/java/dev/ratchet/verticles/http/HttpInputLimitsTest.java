package dev.ratchet.verticles.http;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.engine.EngineOptions;
import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.verticles.Addresses;
import dev.ratchet.verticles.impl.RatchetNodeImpl;
import io.vertx.core.Future;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.ratchet.runtime.testing.Await.await;
import static dev.ratchet.runtime.testing.Await.failure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's input limits over the real HTTP server and the event bus: each over-limit request
 * gets a 400 with its code, and the session it named leaves no key in Redis.
 */
class HttpInputLimitsTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  static final String TOKEN = "rt_limits-agent-token-0123456789";
  static final String PASSWORD = "correct horse battery staple";

  static HttpRuntime runtime;
  static final List<JsonObject> sent = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() {
    JsonObject schema = new JsonObject("""
        {"type":"object","properties":{"id":{"type":"string","maxLength":64},"amount":{"type":"number"}}}""");
    FunctionToolSource tools = FunctionToolSource.create("shop-tools")
        .tool(FunctionToolSource.define("pay", EffectClass.NON_IDEMPOTENT_WRITE).schema(schema).handler(inv -> {
          sent.add(inv.arguments());
          return Future.succeededFuture(new JsonObject().put("paid", true));
        }));
    runtime = HttpRuntime.serving(REDIS, o -> o.engine(EngineOptions.DEFAULT),
        AgentDefinition.builder("shop").toolSource(tools).build(), HttpOptions.create()
            .token("bot", Role.AGENT, PasswordHash.hashToken(TOKEN))
            .user("vic", Role.VIEWER, PasswordHash.hashPassword(PASSWORD.toCharArray(), 1_000)));
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

  static String session() {
    return "lim-" + UUID.randomUUID().toString().substring(0, 8);
  }

  static JsonObject turn(String turnId, int calls, JsonObject arguments) {
    JsonArray list = new JsonArray();
    for (int i = 0; i < calls; i++) {
      list.add(new JsonObject().put("name", "pay").put("arguments", arguments));
    }
    return new JsonObject().put("agent", "shop").put("turn", new JsonObject().put("turnId", turnId).put("calls", list));
  }

  /** The Redis keys of the session: none when nothing of it was ever journaled. */
  static List<String> keysOf(String sessionId) {
    Response keys = await(((RatchetNodeImpl) runtime.ratchet).redisJournal().send(Request.cmd(Command.KEYS)
        .arg(REDIS.keyPrefix() + ":{" + sessionId + "}*")));
    List<String> out = new ArrayList<>();
    keys.forEach(k -> out.add(k.toString()));
    return out;
  }

  static void assertRefused(Http.Answer a, String code, String sessionId) {
    assertThat(a.status()).as(a.body()).isEqualTo(400);
    assertThat(a.json().getString("code")).as(a.body()).isEqualTo(code);
    assertThat(a.json().getString("message")).isNotBlank();
    assertThat(keysOf(sessionId)).isEmpty();
  }

  @Test
  void aTurnOfMoreCallsThanTheLimitIs400TooManyCallsAndTheSessionNeverExists() {
    String s = session();
    Http.Answer a = agent().post("/api/sessions/" + s + "/turns", turn("t1", 65, new JsonObject().put("id", "A-1")));

    assertRefused(a, "TOO_MANY_CALLS", s);
    assertThat(a.json().getString("message")).contains("65 calls").contains("at most 64");
    assertThat(viewer().get("/api/sessions/" + s).status()).isEqualTo(404);
    assertThat(sent).noneMatch(args -> "A-1".equals(args.getString("id")));
  }

  @Test
  void argumentsOverTheLimitAre400ArgumentsTooLargeAndNothingIsJournaled() {
    String s = session();
    Http.Answer a = agent().post("/api/sessions/" + s + "/turns",
        turn("t1", 1, new JsonObject().put("id", "x".repeat(300 * 1024))));

    assertRefused(a, "ARGUMENTS_TOO_LARGE", s);
    assertThat(a.json().getString("message")).contains("call #0").contains("262144");
  }

  @Test
  void unsafeTurnSessionAgentAndMessageIdsAre400InvalidId() {
    String s = session();
    for (String turnId : new String[] {"t1\n[ok] approved", "t1\u001b]0;x\u0007", "x".repeat(129)}) {
      assertRefused(agent().post("/api/sessions/" + s + "/turns", turn(turnId, 1, new JsonObject())), "INVALID_ID", s);
    }
    assertRefused(agent().post("/api/sessions/" + s + "/turns", turn("t1", 1, new JsonObject()).put("agent", "sh\nop")),
        "INVALID_ID", s);
    assertRefused(agent().post("/api/sessions/" + s + "%0Aforged/turns", turn("t1", 1, new JsonObject())),
        "INVALID_ID", s + "\nforged");
    assertRefused(agent().post("/api/sessions/" + s + "/messages", new JsonObject().put("agent", "shop")
        .put("text", "hi").put("messageId", "m\u001b[31m")), "INVALID_ID", s);
    JsonObject call = new JsonObject().put("name", "pay").put("arguments", new JsonObject()).put("modelCallId", "c 1");
    assertRefused(agent().post("/api/sessions/" + s + "/turns", new JsonObject().put("agent", "shop").put("turn",
        new JsonObject().put("turnId", "t1").put("calls", new JsonArray().add(call)))), "INVALID_ID", s);
  }

  @Test
  void aNumberOutOfRangeFailsItsCallAndIsNeverSent() {
    String s = session();
    Http.Answer a = agent().postRaw("/api/sessions/" + s + "/turns", "{\"agent\":\"shop\",\"turn\":{\"turnId\":\"t1\","
        + "\"calls\":[{\"name\":\"pay\",\"arguments\":{\"id\":\"INF-1\",\"amount\":1e400}}]}}");

    assertThat(a.status()).as(a.body()).isIn(200, 202);
    // the answer to the submission may come before the turn's results
    Http.Answer done = agent().get("/api/sessions/" + s + "/turns/t1?wait=30");
    assertThat(done.json().getString("status")).as(done.body()).isEqualTo("completed");
    JsonObject result = done.json().getJsonObject("results").getJsonArray("results").getJsonObject(0);
    assertThat(result.getString("outcome")).isEqualTo("failed");
    assertThat(result.getString("error")).contains("field 'amount'").contains("not a finite number");
    assertThat(sent).noneMatch(args -> "INF-1".equals(args.getString("id")));
  }

  @Test
  void theEventBusRefusesAnOverLimitTurnWithTheSameCode() {
    String s = session();
    JsonObject body = turn("t1", 65, new JsonObject()).put("sessionId", s);

    Throwable err = failure(runtime.vertx.eventBus().request(Addresses.SUBMIT, body));

    assertThat(err).isInstanceOf(ReplyException.class);
    assertThat(((ReplyException) err).failureCode()).isEqualTo(400);
    assertThat(err.getMessage()).startsWith("TOO_MANY_CALLS:");
    assertThat(keysOf(s)).isEmpty();
    Throwable badId = failure(runtime.vertx.eventBus().request(Addresses.SUBMIT, turn("t\n1", 1, new JsonObject())
        .put("sessionId", s)));
    assertThat(badId.getMessage()).startsWith("INVALID_ID:");
  }
}
