package dev.ratchet.verticles.http;

import dev.ratchet.runtime.retention.ArchiveSink;
import dev.ratchet.runtime.retention.RetentionOptions;
import dev.ratchet.runtime.retention.RetentionPolicy;
import dev.ratchet.runtime.retention.RetentionSweeper;
import dev.ratchet.verticles.impl.RatchetNodeImpl;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import java.time.Duration;
import java.util.UUID;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A session retention archived, over real HTTP and Redis: the session list and the timeline mark
 * it archived, the same turn submitted again answers from its tombstone without running, and after
 * the tombstone window the turn is refused with {@code 410 TURN_EXPIRED}, never run again; once
 * retention forgets the session, its id is refused with {@code 410 SESSION_FORGOTTEN}.
 */
class ArchivedSessionsHttpTest {

  @RegisterExtension
  static final ShopServer SHOP = new ShopServer();

  @BeforeAll
  static void start() {
    ((RatchetNodeImpl) SHOP.runtime().ratchet).retention().policy("shop", new RetentionPolicy(null, null,
        Duration.ofMinutes(1)));
  }

  @Test
  void anArchivedSessionIsMarkedItsTurnAnswersFromTheTombstoneAndPastTheWindowIsRefused() {
    String s = "archived-" + UUID.randomUUID().toString().substring(0, 8);
    Http agent = Http.bearer(SHOP.baseUrl(), ShopRuntime.AGENT_TOKEN);
    JsonObject body = HttpApiTest.turn("t1", HttpApiTest.call("charge_card", new JsonObject().put("card", "4242")));
    assertThat(agent.post("/api/sessions/" + s + "/turns", body).status()).isIn(200, 202);
    assertThat(agent.get("/api/sessions/" + s + "/turns/t1?wait=20").status()).isEqualTo(200);
    // charge_card's provider times out: outcome_unknown holds the turn (J9) until a person reconciles it
    Http ana = Http.login(SHOP.baseUrl(), "ana", ShopRuntime.PASSWORD);
    await(((RatchetNodeImpl) SHOP.runtime().ratchet).retention().check(s, System.currentTimeMillis() + 3_600_000));
    assertThat(ana.get("/api/sessions/" + s).json().getValue("archivedAt")).isNull();
    String callId = ana.get("/api/sessions/" + s).json().getJsonArray("turns").getJsonObject(0)
        .getJsonArray("calls").getJsonObject(0).getString("callId");
    assertThat(ana.post("/api/sessions/" + s + "/calls/" + callId + "/reconcile", new JsonObject()
        .put("outcome", "failed").put("note", "no charge at the provider")).status()).isEqualTo(200);
    int writes = SHOP.runtime().writes.size();

    await(((RatchetNodeImpl) SHOP.runtime().ratchet).retention().check(s, System.currentTimeMillis() + 3_600_000));

    JsonObject listed = ana.get("/api/sessions?limit=200").json().getJsonArray("sessions").stream()
        .map(o -> (JsonObject) o).filter(o -> s.equals(o.getString("sessionId"))).findFirst().orElseThrow();
    assertThat(listed.getLong("archivedAt")).isGreaterThanOrEqualTo(listed.getLong("updatedAt"));
    JsonObject timeline = ana.get("/api/sessions/" + s).json();
    assertThat(timeline.getLong("archivedAt")).isNotNull();
    assertThat(timeline.getJsonArray("turns")).isEmpty();

    // a completed turn answers as it answered first (J7), after a reconciliation as before it; so does its tombstone
    Http.Answer again = agent.post("/api/sessions/" + s + "/turns", body);
    assertThat(again.status()).as(again.body()).isEqualTo(200);
    assertThat(again.json().getJsonObject("results").getJsonArray("results").getJsonObject(0).getString("outcome"))
        .isEqualTo("outcome_unknown");
    assertThat(SHOP.runtime().writes).hasSize(writes);

    // eight days on, past the seven-day tombstone window
    await(((RatchetNodeImpl) SHOP.runtime().ratchet).retention().check(s,
        System.currentTimeMillis() + Duration.ofDays(8).toMillis()));
    Http.Answer expired = agent.post("/api/sessions/" + s + "/turns", body);
    assertThat(expired.status()).as(expired.body()).isEqualTo(410);
    assertThat(expired.json().getString("code")).isEqualTo("TURN_EXPIRED");
    assertThat(SHOP.runtime().writes).hasSize(writes);
  }

  @TempDir
  Path archiveDir;

  @Test
  void aForgottenSessionIsRefusedWith410SessionForgottenAndNothingRunsAgain() throws Exception {
    String s = "forgotten-" + UUID.randomUUID().toString().substring(0, 8);
    Http agent = Http.bearer(SHOP.baseUrl(), ShopRuntime.AGENT_TOKEN);
    JsonObject body = HttpApiTest.turn("t1", HttpApiTest.call("look_up_order", new JsonObject().put("id", "o-1")));
    assertThat(agent.post("/api/sessions/" + s + "/turns", body).status()).isIn(200, 202);
    assertThat(agent.get("/api/sessions/" + s + "/turns/t1?wait=20").status()).isEqualTo(200);
    RetentionSweeper forgetting = new RetentionSweeper(SHOP.runtime().vertx,
        ((RatchetNodeImpl) SHOP.runtime().ratchet).redisJournal().retention(),
        ArchiveSink.jsonLines(SHOP.runtime().vertx, archiveDir, 1024 * 1024), RetentionOptions.DISABLED.withEnabled(true)
        .withDefaultPolicy(new RetentionPolicy(null, null, Duration.ofMinutes(1)))
        .withTombstoneWindow(Duration.ofHours(1)).withForgetAfter(Duration.ofHours(1)));
    long now = System.currentTimeMillis();
    await(forgetting.check(s, now + 120_000));
    await(forgetting.check(s, now + 7_200_000));
    await(forgetting.check(s, now + 7_200_001));
    assertThat(forgetting.stats().sessionsForgotten).isEqualTo(1);

    // a node still running the session finds itself fenced (503 FENCED: try again); the next try is refused
    Http.Answer refused = agent.post("/api/sessions/" + s + "/turns", body);
    long deadline = System.currentTimeMillis() + 15_000;
    while (refused.status() == 503 && System.currentTimeMillis() < deadline) {
      Thread.sleep(200);
      refused = agent.post("/api/sessions/" + s + "/turns", body);
    }
    assertThat(refused.status()).as(refused.body()).isEqualTo(410);
    assertThat(refused.json().getString("code")).isEqualTo("SESSION_FORGOTTEN");
    Http.Answer fresh = agent.post("/api/sessions/" + s + "/turns",
        HttpApiTest.turn("t9", HttpApiTest.call("look_up_order", new JsonObject().put("id", "o-2"))));
    assertThat(fresh.status()).as(fresh.body()).isEqualTo(410);
    Http ana = Http.login(SHOP.baseUrl(), "ana", ShopRuntime.PASSWORD);
    assertThat(ana.get("/api/sessions/" + s).status()).isEqualTo(404);
  }
}
