package dev.ratchet.verticles.http;

import dev.ratchet.verticles.impl.RatchetNodeImpl;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.UUID;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code DELETE /api/sessions/{id}} over real HTTP and Redis: only an operator (an approver who sees
 * every tenant) erases; to anyone else the session does not exist; the erasure is audited without
 * the session's content. And {@code GET /api/retention} shows each agent's retention settings.
 */
class SessionErasureTest {

  @RegisterExtension
  static final ShopServer SHOP = new ShopServer();

  private static String sessionWithACompletedTurn() {
    String s = "erase-" + UUID.randomUUID().toString().substring(0, 8);
    Http agent = Http.bearer(SHOP.baseUrl(), ShopRuntime.AGENT_TOKEN);
    Http.Answer turn = agent.post("/api/sessions/" + s + "/turns", HttpApiTest.turn("t1",
        HttpApiTest.call("look_up_order", new JsonObject().put("id", "secret-order-42"))));
    assertThat(turn.status()).as(turn.body()).isIn(200, 202);
    assertThat(agent.get("/api/sessions/" + s + "/turns/t1?wait=20").status()).isEqualTo(200);
    return s;
  }

  private static JsonObject unknown(String sessionId) {
    return new JsonObject().put("code", "UNKNOWN_SESSION").put("message", "no session '" + sessionId + "'");
  }

  @Test
  void onlyAnOperatorErasesASessionAndAnyoneElseIsToldItDoesNotExist() {
    String s = sessionWithACompletedTurn();
    for (Http notOperator : List.of(Http.login(SHOP.baseUrl(), "tess", ShopRuntime.PASSWORD),
        Http.login(SHOP.baseUrl(), "vic", ShopRuntime.PASSWORD), Http.bearer(SHOP.baseUrl(), ShopRuntime.AGENT_TOKEN))) {
      Http.Answer refused = notOperator.delete("/api/sessions/" + s);
      assertThat(refused.status()).isEqualTo(404);
      assertThat(refused.json()).isEqualTo(unknown(s));
    }
    Http ana = Http.login(SHOP.baseUrl(), "ana", ShopRuntime.PASSWORD);
    assertThat(ana.get("/api/sessions/" + s).status()).isEqualTo(200);

    Http.Answer erased = ana.delete("/api/sessions/" + s);
    assertThat(erased.status()).as(erased.body()).isEqualTo(200);

    assertThat(ana.get("/api/sessions/" + s).status()).isEqualTo(404);
    Http.Answer again = ana.delete("/api/sessions/" + s);
    assertThat(again.status()).isEqualTo(404);
    assertThat(again.json()).isEqualTo(unknown(s));
    assertThat(ana.delete("/api/sessions/never-" + UUID.randomUUID()).status()).isEqualTo(404);
  }

  @Test
  void aTurnOnAnErasedSessionIsRefusedAsErasedNotAsATakeOverByAnotherNode() {
    String s = sessionWithACompletedTurn();
    assertThat(Http.login(SHOP.baseUrl(), "ana", ShopRuntime.PASSWORD).delete("/api/sessions/" + s).status()).isEqualTo(200);

    Http agent = Http.bearer(SHOP.baseUrl(), ShopRuntime.AGENT_TOKEN);
    for (String turnId : List.of("t2", "t1", "t3")) {
      Http.Answer refused = agent.post("/api/sessions/" + s + "/turns", HttpApiTest.turn(turnId,
          HttpApiTest.call("look_up_order", new JsonObject().put("id", "o-1"))));
      assertThat(refused.status()).as(refused.body()).isEqualTo(410);
      assertThat(refused.json().getString("code")).isEqualTo("SESSION_ERASED");
      assertThat(refused.body()).doesNotContain("another node").doesNotContain("FENCED");
    }
    assertThat(agent.get("/api/sessions/" + s + "/turns/t2").status()).isEqualTo(404);
  }

  @Test
  void anErasureIsAuditedWithWhoAndWhenButNoneOfTheSessionsContent() {
    String s = sessionWithACompletedTurn();
    long before = System.currentTimeMillis();
    assertThat(Http.login(SHOP.baseUrl(), "ana", ShopRuntime.PASSWORD).delete("/api/sessions/" + s).status()).isEqualTo(200);

    List<JsonObject> audit = await(((RatchetNodeImpl) SHOP.runtime().ratchet).redisJournal().retention().audit(10_000));
    assertThat(audit).filteredOn(a -> s.equals(a.getString("session"))).singleElement().satisfies(a -> {
      assertThat(a.getString("who")).isEqualTo("ana");
      assertThat(a.getString("action")).isEqualTo("erase");
      assertThat(a.getLong("at")).isBetween(before, System.currentTimeMillis());
      assertThat(a.encode()).doesNotContain("secret-order-42").doesNotContain("look_up_order")
          .doesNotContain("support-bot");
    });
  }

  @Test
  void theRetentionSettingsOfEachAgentAreShown() {
    Http.Answer settings = Http.login(SHOP.baseUrl(), "vic", ShopRuntime.PASSWORD).get("/api/retention");
    assertThat(settings.status()).isEqualTo(200);
    JsonObject json = settings.json();
    assertThat(json.getBoolean("enabled")).isFalse();
    assertThat(json.getLong("tombstoneWindowMillis")).isEqualTo(604_800_000L);
    assertThat(json.getJsonObject("agents").getJsonObject("shop").getBoolean("own")).isFalse();
  }
}
