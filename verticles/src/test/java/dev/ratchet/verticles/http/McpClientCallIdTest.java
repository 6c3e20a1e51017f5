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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Ratchet's MCP endpoint with a client that names each call by the model's own call id instead of
 * a Ratchet turn id, as Claude Code does with {@code _meta["claudecode/toolUseId"]}: a resent call
 * runs nothing twice, from any MCP session or none, and two calls with their own ids both run.
 */
class McpClientCallIdTest {

  @RegisterExtension
  static final ShopServer SHOP = new ShopServer();

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeEach
  void clear() {
    SHOP.runtime().writes.clear();
  }

  @Test
  void aCallResentWithTheSameToolUseIdRunsItsWriteOnceFromAnyMcpSessionOrNone() throws Exception {
    JsonObject charge = call(1, new JsonObject().put("card", "c-cc-1"), "toolu_01ResentCharge");
    JsonObject first = result(post(initialize(), charge));
    JsonObject afterRestart = result(post(initialize(), charge));
    JsonObject noSession = result(post(null, charge));

    assertThat(SHOP.runtime().writes).hasSize(1);
    assertThat(first.getJsonObject("_meta").getString("dev.ratchet/outcome")).isEqualTo("outcome_unknown");
    for (JsonObject again : new JsonObject[] {afterRestart, noSession}) {
      assertThat(again.getJsonArray("content")).isEqualTo(first.getJsonArray("content"));
      assertThat(again.getJsonObject("_meta").getString("dev.ratchet/outcome")).isEqualTo("outcome_unknown");
      assertThat(again.getJsonObject("_meta").getString("dev.ratchet/callId"))
          .isEqualTo(first.getJsonObject("_meta").getString("dev.ratchet/callId"));
      assertThat(again.getJsonObject("_meta").getString("dev.ratchet/sessionId"))
          .isEqualTo(first.getJsonObject("_meta").getString("dev.ratchet/sessionId"));
    }
  }

  @Test
  void twoCallsWithTheirOwnToolUseIdsAndTheSameArgumentsBothRun() throws Exception {
    String session = initialize();
    JsonObject arguments = new JsonObject().put("card", "c-cc-2");
    JsonObject one = result(post(session, call(1, arguments, "toolu_01FirstCharge")));
    JsonObject two = result(post(session, call(2, arguments, "toolu_01SecondCharge")));

    assertThat(SHOP.runtime().writes).hasSize(2);
    assertThat(one.getJsonObject("_meta").getString("dev.ratchet/turn"))
        .isNotEqualTo(two.getJsonObject("_meta").getString("dev.ratchet/turn"));
  }

  @Test
  void aToolUseIdReusedForOtherArgumentsIsRefusedAndRunsNothing() throws Exception {
    String session = initialize();
    result(post(session, call(1, new JsonObject().put("card", "c-cc-3"), "toolu_01Reused")));
    JsonObject reused = post(session, call(2, new JsonObject().put("card", "c-cc-4"), "toolu_01Reused"));

    assertThat(reused.getJsonObject("error").getJsonObject("data").getString("code")).isEqualTo("TURN_ID_REUSED");
    assertThat(reused.getJsonObject("error").getString("message")).contains("claudecode/toolUseId");
    assertThat(SHOP.runtime().writes).hasSize(1);
  }

  @Test
  void aRatchetTurnIdWinsOverTheToolUseId() throws Exception {
    JsonObject charge = call(1, new JsonObject().put("card", "c-cc-5"), "toolu_01WithTurn");
    charge.getJsonObject("params").getJsonObject("_meta").put("dev.ratchet/turn", "resp-with-tool-use-id")
        .put("dev.ratchet/index", 0).put("dev.ratchet/count", 1);

    JsonObject answer = result(post(initialize(), charge));

    assertThat(answer.getJsonObject("_meta").getString("dev.ratchet/turn")).isEqualTo("resp-with-tool-use-id");
  }

  @Test
  void aToolUseIdThatIsNotAStringIsRefusedAndRunsNothing() throws Exception {
    JsonObject charge = call(1, new JsonObject().put("card", "c-cc-6"), "unused");
    charge.getJsonObject("params").getJsonObject("_meta").put("claudecode/toolUseId", 7);

    JsonObject answer = post(initialize(), charge);

    assertThat(answer.getJsonObject("error").getJsonObject("data").getString("code")).isEqualTo("INVALID_REQUEST");
    assertThat(answer.getJsonObject("error").getString("message")).contains("claudecode/toolUseId");
    assertThat(SHOP.runtime().writes).isEmpty();
  }

  private static JsonObject result(JsonObject answer) {
    assertThat(answer.getJsonObject("result")).as(answer.encode()).isNotNull();
    return answer.getJsonObject("result");
  }

  /** A tools/call of charge_card as Claude Code sends it: no Ratchet turn id, the model's tool_use id. */
  private static JsonObject call(int id, JsonObject arguments, String toolUseId) {
    return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", "tools/call").put("params",
        new JsonObject().put("name", "charge_card").put("arguments", arguments).put("_meta", new JsonObject()
            .put("claudecode/toolUseId", toolUseId).put("progressToken", id)));
  }

  /** A new MCP session, as a client that starts (or restarts) gets one. */
  private String initialize() throws Exception {
    HttpResponse<String> init = send(null, new JsonObject().put("jsonrpc", "2.0").put("id", 0).put("method", "initialize")
        .put("params", new JsonObject().put("protocolVersion", "2025-06-18").put("capabilities", new JsonObject())
            .put("clientInfo", new JsonObject().put("name", "claude-code").put("version", "2"))));
    return init.headers().firstValue("Mcp-Session-Id").orElseThrow();
  }

  private JsonObject post(String mcpSession, JsonObject message) throws Exception {
    return new JsonObject(send(mcpSession, message).body());
  }

  private HttpResponse<String> send(String mcpSession, JsonObject message) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(SHOP.baseUrl() + "/mcp/shop"))
        .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json").header("Accept", "application/json")
        .header("Authorization", "Bearer " + ShopRuntime.AGENT_TOKEN)
        .POST(HttpRequest.BodyPublishers.ofString(message.encode()));
    if (mcpSession != null) {
      b.header("Mcp-Session-Id", mcpSession);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
