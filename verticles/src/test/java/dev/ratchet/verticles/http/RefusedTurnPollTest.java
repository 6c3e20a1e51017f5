package dev.ratchet.verticles.http;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A turn refused when it was submitted is not journaled: polling it answers that the session holds
 * no such turn, at once and after a wait, never {@code 202 pending} as if it were running.
 */
class RefusedTurnPollTest {

  @RegisterExtension
  static final ShopServer SHOP = new ShopServer();

  @Test
  void aTurnRefusedAtSubmissionReadsAsUnknownWhenPolledNeverAsPending() {
    String s = "refused-" + UUID.randomUUID().toString().substring(0, 8);
    Http agent = Http.bearer(SHOP.baseUrl(), ShopRuntime.AGENT_TOKEN);
    Http.Answer ran = agent.post("/api/sessions/" + s + "/turns", HttpApiTest.turn("t1",
        HttpApiTest.call("look_up_order", new JsonObject().put("id", "o-1"))));
    assertThat(ran.status()).as(ran.body()).isIn(200, 202);
    Http.Answer refused = agent.post("/api/sessions/" + s + "/turns", new JsonObject().put("agent", "shop")
        .put("turn", new JsonObject().put("turnId", "t2").put("calls", new JsonArray())));
    assertThat(refused.status()).as(refused.body()).isEqualTo(400);

    for (String poll : new String[] {"", "?wait=1"}) {
      Http.Answer polled = agent.get("/api/sessions/" + s + "/turns/t2" + poll);
      assertThat(polled.status()).as(poll + ": " + polled.body()).isEqualTo(404);
      assertThat(polled.json().getString("code")).isEqualTo("UNKNOWN_TURN");
      assertThat(polled.json().getString("status")).isNotEqualTo("pending");
    }
    assertThat(agent.get("/api/sessions/" + s + "/turns/t1?wait=20").status()).isEqualTo(200);
  }
}
