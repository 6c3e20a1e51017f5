package dev.ratchet.verticles.http;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Ratchet's MCP endpoint as clients nobody on the project wrote use it, over plain HTTP: a client
 * that restarts and resends its turn with or without a session header, a turn id reused for other
 * calls, a count over the engine's limit, a bad token, deeply nested arguments, notifications
 * nobody answers, and Claude Code, which names each call by its model's tool_use id in
 * {@code _meta["claudecode/toolUseId"]} instead of a Ratchet turn id.
 */
class McpForeignClientTest {

  @RegisterExtension
  static final ShopServer SHOP = new ShopServer();

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeEach
  void clear() {
    SHOP.runtime().writes.clear();
  }

  @Test
  void aRestartedClientResendingItsTurnRunsTheWriteOnceWithOrWithoutASessionHeader() throws Exception {
    JsonObject charge = call(1, "charge_card", new JsonObject().put("card", "c-1"), "resp-restart-1", 0, 1);
    JsonObject first = post(token(), initialize(), charge).json();
    JsonObject afterRestart = post(token(), initialize(), charge).json();
    JsonObject noSession = post(token(), null, charge).json();

    assertThat(SHOP.runtime().writes).hasSize(1);
    String callId = meta(first).getString("dev.ratchet/callId");
    assertThat(meta(afterRestart).getString("dev.ratchet/callId")).isEqualTo(callId);
    assertThat(meta(noSession).getString("dev.ratchet/callId")).isEqualTo(callId);
    assertThat(meta(noSession).getString("dev.ratchet/sessionId")).isEqualTo(meta(first).getString("dev.ratchet/sessionId"));
  }

  @Test
  void aTurnIdReusedForOtherArgumentsIsRefusedAsTheHttpApiRefusesIt() throws Exception {
    String session = initialize();
    post(token(), session, call(1, "charge_card", new JsonObject().put("card", "c-2"), "resp-reuse-1", 0, 1));
    JsonObject reused = post(token(), session, call(2, "charge_card", new JsonObject().put("card", "c-3"),
        "resp-reuse-1", 0, 1)).json();

    assertThat(reused.getJsonObject("error").getJsonObject("data").getString("code")).isEqualTo("TURN_ID_REUSED");
    assertThat(SHOP.runtime().writes).hasSize(1);
  }

  @Test
  void aCountOverTheEnginesLimitIsRefusedAtOnceInsteadOfWaitingForCallsThatCannotRun() throws Exception {
    // the gathering wait is 10 s; the request's own timeout is shorter, so only an immediate refusal passes
    JsonObject answer = post(token(), initialize(), call(1, "look_up_order", new JsonObject(), "resp-count-1", 0, 65),
        Duration.ofSeconds(5)).json();

    assertThat(answer.getJsonObject("error").getJsonObject("data").getString("code")).isEqualTo("TOO_MANY_CALLS");
    assertThat(answer.getJsonObject("error").getString("message")).contains("engine.maxCallsPerTurn");
  }

  @Test
  void aBadTokenIsA401WithABearerChallengeSoClientsDoNotStartAnOAuthFlow() throws Exception {
    HttpResponse<String> refused = post("rt_not-a-token-0123456789", null, ping(), Duration.ofSeconds(10)).raw();

    assertThat(refused.statusCode()).isEqualTo(401);
    assertThat(refused.headers().firstValue("WWW-Authenticate").orElse("")).startsWith("Bearer");
    assertThat(refused.headers().firstValue("WWW-Authenticate").orElse("")).doesNotContain("resource_metadata");
  }

  @Test
  void deeplyNestedArgumentsAreRefusedWithAnErrorThatSaysSo() throws Exception {
    for (int depth : new int[] {1_500, 8_000}) {
      String nested = "{\"a\":".repeat(depth) + "1" + "}".repeat(depth);
      String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"look_up_order\","
          + "\"arguments\":{\"x\":" + nested + "}}}";
      Http.Answer answer = send(token(), initialize(), body, Duration.ofSeconds(10));

      assertThat(answer.status()).as("depth %d", depth).isLessThan(500);
      JsonObject error = answer.json().getJsonObject("error");
      assertThat(error).as("depth %d: %s", depth, answer.body()).isNotNull();
      assertThat(error.getString("message")).as("depth %d", depth).contains("nest");
      assertThat(error.getJsonObject("data").getString("code")).isIn("INVALID_REQUEST", "ARGUMENTS_TOO_LARGE");
    }
    assertThat(post(token(), initialize(), ping()).json().getJsonObject("result")).isNotNull();
  }

  @Test
  void notificationsAndAnswersNobodyWaitsForAreAcceptedWithoutALogLineEach() throws Exception {
    String session = initialize();
    try (CapturedLog log = new CapturedLog()) {
      for (int i = 0; i < 40; i++) {
        JsonObject notification = new JsonObject().put("jsonrpc", "2.0").put("method", List.of("notifications/initialized",
            "notifications/cancelled", "notifications/progress", "notifications/roots/list_changed").get(i % 4))
            .put("params", new JsonObject().put("requestId", i).put("progressToken", "p-" + i).put("progress", i));
        assertThat(post(token(), session, notification).status()).isEqualTo(202);
        JsonObject unasked = new JsonObject().put("jsonrpc", "2.0").put("id", "s-" + i).put("result", new JsonObject());
        assertThat(post(token(), session, unasked).status()).isEqualTo(202);
      }
      assertThat(post(token(), session, ping()).json().getJsonObject("result")).isNotNull();

      assertThat(log.text().lines().filter(l -> l.toLowerCase(java.util.Locale.ROOT).matches(".*(mcp|notification|handler).*")))
          .isEmpty();
    }
  }

  @Test
  void aCallResentWithTheSameClaudeCodeToolUseIdRunsItsWriteOnceFromAnyMcpSessionOrNone() throws Exception {
    JsonObject charge = toolUseCall(1, new JsonObject().put("card", "c-cc-1"), "toolu_01ResentCharge");
    JsonObject first = post(token(), initialize(), charge).json();
    JsonObject afterRestart = post(token(), initialize(), charge).json();
    JsonObject noSession = post(token(), null, charge).json();

    assertThat(SHOP.runtime().writes).hasSize(1);
    assertThat(meta(first).getString("dev.ratchet/outcome")).isEqualTo("outcome_unknown");
    for (JsonObject again : List.of(afterRestart, noSession)) {
      assertThat(again.getJsonObject("result").getJsonArray("content"))
          .isEqualTo(first.getJsonObject("result").getJsonArray("content"));
      assertThat(meta(again).getString("dev.ratchet/outcome")).isEqualTo("outcome_unknown");
      assertThat(meta(again).getString("dev.ratchet/callId")).isEqualTo(meta(first).getString("dev.ratchet/callId"));
      assertThat(meta(again).getString("dev.ratchet/sessionId")).isEqualTo(meta(first).getString("dev.ratchet/sessionId"));
    }
  }

  @Test
  void twoCallsWithTheirOwnToolUseIdsAndTheSameArgumentsBothRun() throws Exception {
    String session = initialize();
    JsonObject arguments = new JsonObject().put("card", "c-cc-2");
    JsonObject one = post(token(), session, toolUseCall(1, arguments, "toolu_01FirstCharge")).json();
    JsonObject two = post(token(), session, toolUseCall(2, arguments, "toolu_01SecondCharge")).json();

    assertThat(SHOP.runtime().writes).hasSize(2);
    assertThat(meta(one).getString("dev.ratchet/turn")).isNotEqualTo(meta(two).getString("dev.ratchet/turn"));
  }

  @Test
  void aToolUseIdReusedForOtherArgumentsIsRefusedAndRunsNothing() throws Exception {
    String session = initialize();
    post(token(), session, toolUseCall(1, new JsonObject().put("card", "c-cc-3"), "toolu_01Reused"));
    JsonObject reused = post(token(), session, toolUseCall(2, new JsonObject().put("card", "c-cc-4"),
        "toolu_01Reused")).json();

    assertThat(reused.getJsonObject("error").getJsonObject("data").getString("code")).isEqualTo("TURN_ID_REUSED");
    assertThat(reused.getJsonObject("error").getString("message")).contains("claudecode/toolUseId");
    assertThat(SHOP.runtime().writes).hasSize(1);
  }

  @Test
  void aRatchetTurnIdWinsOverTheToolUseId() throws Exception {
    JsonObject charge = toolUseCall(1, new JsonObject().put("card", "c-cc-5"), "toolu_01WithTurn");
    charge.getJsonObject("params").getJsonObject("_meta").put("dev.ratchet/turn", "resp-with-tool-use-id")
        .put("dev.ratchet/index", 0).put("dev.ratchet/count", 1);

    assertThat(meta(post(token(), initialize(), charge).json()).getString("dev.ratchet/turn"))
        .isEqualTo("resp-with-tool-use-id");
  }

  @Test
  void aToolUseIdThatIsNotAStringIsRefusedAndRunsNothing() throws Exception {
    JsonObject charge = toolUseCall(1, new JsonObject().put("card", "c-cc-6"), "unused");
    charge.getJsonObject("params").getJsonObject("_meta").put("claudecode/toolUseId", 7);

    JsonObject answer = post(token(), initialize(), charge).json();

    assertThat(answer.getJsonObject("error").getJsonObject("data").getString("code")).isEqualTo("INVALID_REQUEST");
    assertThat(answer.getJsonObject("error").getString("message")).contains("claudecode/toolUseId");
    assertThat(SHOP.runtime().writes).isEmpty();
  }

  private static JsonObject meta(JsonObject answer) {
    assertThat(answer.getJsonObject("result")).as(answer.encode()).isNotNull();
    return answer.getJsonObject("result").getJsonObject("_meta");
  }

  private static String token() {
    return ShopRuntime.AGENT_TOKEN;
  }

  private static JsonObject ping() {
    return new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "ping");
  }

  private static JsonObject call(int id, String tool, JsonObject arguments, String turn, int index, int count) {
    return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", "tools/call").put("params",
        new JsonObject().put("name", tool).put("arguments", arguments).put("_meta", new JsonObject()
            .put("dev.ratchet/turn", turn).put("dev.ratchet/index", index).put("dev.ratchet/count", count)));
  }

  /** A tools/call of charge_card as Claude Code sends it: no Ratchet turn id, the model's tool_use id. */
  private static JsonObject toolUseCall(int id, JsonObject arguments, String toolUseId) {
    return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", "tools/call").put("params",
        new JsonObject().put("name", "charge_card").put("arguments", arguments).put("_meta", new JsonObject()
            .put("claudecode/toolUseId", toolUseId).put("progressToken", id)));
  }

  /** A new MCP session, as a client that starts (or restarts) gets one. */
  private String initialize() throws Exception {
    Http.Answer init = send(token(), null, new JsonObject().put("jsonrpc", "2.0").put("id", 0).put("method", "initialize")
        .put("params", new JsonObject().put("protocolVersion", "2025-06-18").put("capabilities", new JsonObject())
            .put("clientInfo", new JsonObject().put("name", "foreign").put("version", "1"))).encode(),
        Duration.ofSeconds(10));
    return init.raw().headers().firstValue("Mcp-Session-Id").orElseThrow();
  }

  private Http.Answer post(String token, String mcpSession, JsonObject message) throws Exception {
    return post(token, mcpSession, message, Duration.ofSeconds(30));
  }

  private Http.Answer post(String token, String mcpSession, JsonObject message, Duration timeout) throws Exception {
    return send(token, mcpSession, message.encode(), timeout);
  }

  private Http.Answer send(String token, String mcpSession, String body, Duration timeout) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(SHOP.baseUrl() + "/mcp/shop")).timeout(timeout)
        .header("Content-Type", "application/json").header("Accept", "application/json")
        .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.ofString(body));
    if (mcpSession != null) {
      b.header("Mcp-Session-Id", mcpSession);
    }
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    return new Http.Answer(r.statusCode(), r.body(), r);
  }
}
