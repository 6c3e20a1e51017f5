package dev.ratchet.verticles.http;

import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.verticles.http.impl.AuthHandler;
import dev.ratchet.verticles.http.impl.PrefixedSessionRedis;
import dev.ratchet.verticles.impl.RatchetNodeImpl;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.HttpCookie;
import java.net.URI;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A dashboard login lives in the journal's Redis: after the whole runtime restarts on the same
 * Redis, the browser's cookie still logs it in and its CSRF token still lets it approve.
 */
class LoginSessionRestartTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  ShopRuntime shop;

  @AfterEach
  void stop() {
    if (shop != null) {
      shop.close();
    }
  }

  @Test
  void aLoginAndItsCsrfTokenSurviveARestartOfTheRuntime() {
    shop = new ShopRuntime(REDIS);
    int port = shop.server.actualPort();
    String base = shop.baseUrl();
    Http ana = Http.login(base, "ana", ShopRuntime.PASSWORD);
    String session = "s-restart";
    Http.Answer submitted = Http.bearer(base, ShopRuntime.AGENT_TOKEN).post("/api/sessions/" + session + "/turns",
        HttpApiTest.turn("t1", HttpApiTest.call("refund_order", new JsonObject().put("order", "R-1"))));
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(202);
    JsonObject pending = HttpApiTest.awaitPending(ana, session);

    String cookie = ((java.net.CookieManager) ana.client().cookieHandler().orElseThrow()).getCookieStore()
        .get(URI.create(base)).stream().filter(c -> c.getName().equals(AuthHandler.SESSION_COOKIE))
        .map(HttpCookie::getValue).findFirst().orElseThrow();
    String key = PrefixedSessionRedis.key(REDIS.keyPrefix(), cookie);
    assertThat(await(((RatchetNodeImpl) shop.ratchet).redisJournal().send(Request.cmd(Command.PTTL).arg(key)))
        .toLong()).isPositive();

    shop.close();
    shop = new ShopRuntime(REDIS, o -> o.port(port));

    Http.Answer sessions = ana.get("/api/sessions");
    assertThat(sessions.status()).as(sessions.body()).isEqualTo(200);
    assertThat(ana.get("/api/me").json().getString("name")).isEqualTo("ana");
    String path = "/api/approvals/" + session + "/" + pending.getString("callId");
    JsonObject decision = new JsonObject().put("argumentsHash", pending.getString("argumentsHash"))
        .put("approved", true).put("reason", "checked after the restart");
    Http.Answer decided = ana.post(path, decision);
    assertThat(decided.status()).as(decided.body()).isEqualTo(200);
    Http.Answer done = Http.bearer(shop.baseUrl(), ShopRuntime.AGENT_TOKEN).get("/api/sessions/" + session
        + "/turns/t1?wait=20");
    assertThat(done.status()).as(done.body()).isEqualTo(200);
    JsonArray results = done.json().getJsonObject("results").getJsonArray("results");
    assertThat(results.getJsonObject(0).getString("outcome")).isEqualTo("succeeded");
  }

  @Test
  void theSessionStoreWritesOnlyUnderTheJournalsKeyPrefix() {
    shop = new ShopRuntime(REDIS);
    Http ana = Http.login(shop.baseUrl(), "ana", ShopRuntime.PASSWORD);
    String cookie = ((java.net.CookieManager) ana.client().cookieHandler().orElseThrow()).getCookieStore()
        .get(URI.create(shop.baseUrl())).stream().filter(c -> c.getName().equals(AuthHandler.SESSION_COOKIE))
        .map(HttpCookie::getValue).findFirst().orElseThrow();
    JsonArray keys = new JsonArray();
    await(((RatchetNodeImpl) shop.ratchet).redisJournal().send(Request.cmd(Command.KEYS)
        .arg(REDIS.keyPrefix() + ":http-session:*")))
        .forEach(k -> keys.add(k.toString()));
    assertThat(keys).containsExactly(REDIS.keyPrefix() + ":http-session:" + cookie);
    assertThat(await(((RatchetNodeImpl) shop.ratchet).redisJournal().send(Request.cmd(Command.EXISTS).arg(cookie)))
        .toLong()).isZero();
  }
}
