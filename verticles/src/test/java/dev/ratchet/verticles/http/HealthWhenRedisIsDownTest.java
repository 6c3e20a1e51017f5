package dev.ratchet.verticles.http;

import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code /health} turns 503 when Redis goes away, and API errors then name no address. */
class HealthWhenRedisIsDownTest {

  @RegisterExtension
  static final TestRedis REDIS = TestRedis.withOwnServer();

  @Test
  void healthIsDownAndApiCallsAre503WithoutInternalsWhenRedisStops() {
    try (ShopRuntime shop = new ShopRuntime(REDIS)) {
      Http anon = Http.anonymous(shop.baseUrl());
      assertThat(anon.get("/health").status()).isEqualTo(200);
      Http ana = Http.login(shop.baseUrl(), "ana", ShopRuntime.PASSWORD);
      REDIS.ownServer().kill();

      Http.Answer down = anon.get("/health");
      assertThat(down.status()).isEqualTo(503);
      assertThat(down.json()).isEqualTo(new JsonObject().put("status", "DOWN").put("redis", "unreachable")
          .put("journal", "unavailable"));

      Http.Answer api = Http.bearer(shop.baseUrl(), ShopRuntime.AGENT_TOKEN)
          .get("/api/sessions/s1/turns/t1");
      assertThat(api.status()).isEqualTo(503);
      assertThat(api.json().getString("code")).isEqualTo("JOURNAL_UNAVAILABLE");
      assertThat(api.body()).doesNotContain(String.valueOf(REDIS.ownServer().port())).doesNotContain("redis://");

      // a dashboard login is kept in the same Redis: it cannot be checked, which is not an internal error
      try (CapturedLog log = new CapturedLog()) {
        Http.Answer page = ana.get("/api/sessions");
        assertThat(page.status()).as(page.body()).isEqualTo(503);
        assertThat(page.json().getString("code")).isEqualTo("SESSION_STORE_UNAVAILABLE");
        assertThat(page.body()).doesNotContain(String.valueOf(REDIS.ownServer().port()));
        assertThat(log.text()).doesNotContain(" ERROR ").doesNotContain("\tat ");
      }
    }
  }
}
