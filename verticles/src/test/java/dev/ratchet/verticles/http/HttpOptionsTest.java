package dev.ratchet.verticles.http;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HttpOptionsTest {

  static final String TOKEN_HASH = PasswordHash.hashToken("t");

  @Test
  void readsTheHttpSectionAndTheEnvironmentOverridesThePort() {
    JsonObject http = new JsonObject().put("port", 9090).put("host", "127.0.0.1").put("bodyLimitBytes", 2048)
        .put("users", new JsonArray().add(new JsonObject().put("name", "ana").put("role", "approver")
            .put("passwordHash", "pbkdf2-sha256$1$a$b")))
        .put("tokens", new JsonArray().add(new JsonObject().put("name", "bot").put("role", "agent")
            .put("tokenHash", TOKEN_HASH)));
    HttpOptions o = HttpOptions.fromConfig(http, null);
    assertThat(o.port()).isEqualTo(9090);
    assertThat(o.host()).isEqualTo("127.0.0.1");
    assertThat(o.bodyLimitBytes()).isEqualTo(2048);
    assertThat(o.users()).containsExactly(new HttpOptions.User("ana", Role.APPROVER, "pbkdf2-sha256$1$a$b"));
    assertThat(o.tokens()).containsExactly(new HttpOptions.Token("bot", Role.AGENT, TOKEN_HASH));
    assertThat(HttpOptions.fromConfig(http, "7070").port()).isEqualTo(7070);
    assertThat(HttpOptions.fromConfig(null, null).port()).isEqualTo(8080);
  }

  @Test
  void byDefaultItListensLocallyReadsLittleBeforeLoginAndKeepsLoginsInRedis() {
    HttpOptions defaults = HttpOptions.fromConfig(null, null);
    assertThat(defaults.host()).isEqualTo("127.0.0.1");
    assertThat(defaults.preAuthBodyLimitBytes()).isEqualTo(16 * 1024);
    assertThat(defaults.sessionStore()).isEqualTo(HttpOptions.SessionStore.REDIS);
    assertThat(defaults.loginFreeFailures()).isEqualTo(5);
    assertThat(defaults.loginLockoutMillis()).isEqualTo(1_000);
    assertThat(defaults.loginMaxLockoutMillis()).isEqualTo(900_000);
    HttpOptions shipped = HttpOptions.fromConfig(dev.ratchet.verticles.RatchetConfig.defaults().getJsonObject("http"),
        null);
    assertThat(shipped.host()).isEqualTo("127.0.0.1");
    assertThat(shipped.preAuthBodyLimitBytes()).isEqualTo(16 * 1024);
    HttpOptions tuned = HttpOptions.fromConfig(new JsonObject().put("sessionStore", "local")
        .put("preAuthBodyLimitBytes", 4096).put("login", new JsonObject().put("freeFailures", 3)), null);
    assertThat(tuned.sessionStore()).isEqualTo(HttpOptions.SessionStore.LOCAL);
    assertThat(tuned.preAuthBodyLimitBytes()).isEqualTo(4096);
    assertThat(tuned.loginFreeFailures()).isEqualTo(3);
    assertThatThrownBy(() -> HttpOptions.fromConfig(new JsonObject().put("sessionStore", "disk"), null))
        .hasMessageContaining("http.sessionStore must be \"redis\" or \"local\"");
    assertThatThrownBy(() -> HttpOptions.fromConfig(new JsonObject().put("login", new JsonObject()
        .put("lockoutMillis", 0)), null)).hasMessageContaining("http.login");
  }

  @Test
  void refusesUnknownRolesAndTokensThatAreNotHashes() {
    JsonObject badRole = new JsonObject().put("users", new JsonArray().add(new JsonObject().put("name", "x")
        .put("role", "admin").put("passwordHash", "h")));
    assertThatThrownBy(() -> HttpOptions.fromConfig(badRole, null)).hasMessageContaining("unknown role");
    JsonObject plainToken = new JsonObject().put("tokens", new JsonArray().add(new JsonObject().put("name", "bot")
        .put("tokenHash", "my-plain-token")));
    assertThatThrownBy(() -> HttpOptions.fromConfig(plainToken, null)).hasMessageContaining("SHA-256");
  }

  @Test
  void aUserOrTokenMayNameTheResourceIdItsSessionsBelongTo() {
    JsonObject http = new JsonObject()
        .put("users", new JsonArray().add(new JsonObject().put("name", "ana").put("role", "agent")
            .put("passwordHash", "pbkdf2-sha256$1$a$b").put("resourceId", "tenant-7")))
        .put("tokens", new JsonArray()
            .add(new JsonObject().put("name", "acme-bot").put("tokenHash", TOKEN_HASH).put("resourceId", "tenant-acme"))
            .add(new JsonObject().put("name", "bot").put("tokenHash", TOKEN_HASH)));
    HttpOptions o = HttpOptions.fromConfig(http, null);
    assertThat(o.users().get(0).callerId()).isEqualTo("tenant-7");
    assertThat(o.tokens()).extracting(HttpOptions.Token::callerId).containsExactly("tenant-acme", "bot");
    JsonObject bad = new JsonObject().put("tokens", new JsonArray().add(new JsonObject().put("name", "bot")
        .put("tokenHash", TOKEN_HASH).put("resourceId", "has spaces")));
    assertThatThrownBy(() -> HttpOptions.fromConfig(bad, null)).hasMessageContaining("resourceId");
  }

  @Test
  void usersAndTokensMayBeGivenTenantsToSeeAndFourEyesIsOffUnlessTurnedOn() {
    JsonObject http = new JsonObject().put("fourEyes", true)
        .put("users", new JsonArray()
            .add(new JsonObject().put("name", "ana").put("role", "approver").put("passwordHash", "h")
                .put("tenants", new JsonArray().add("tenant-a").add("tenant-b")))
            .add(new JsonObject().put("name", "ops").put("role", "viewer").put("passwordHash", "h").put("tenants", "*")))
        .put("tokens", new JsonArray()
            .add(new JsonObject().put("name", "bot").put("tokenHash", TOKEN_HASH).put("tenants", new JsonArray().add("*")))
            .add(new JsonObject().put("name", "plain").put("tokenHash", TOKEN_HASH)));
    HttpOptions o = HttpOptions.fromConfig(http, null);
    assertThat(o.fourEyes()).isTrue();
    assertThat(o.users()).extracting(HttpOptions.User::tenants).containsExactly(List.of("tenant-a", "tenant-b"),
        List.of("*"));
    assertThat(o.tokens()).extracting(HttpOptions.Token::tenants).containsExactly(List.of("*"), null);
    assertThat(HttpOptions.fromConfig(new JsonObject(), null).fourEyes()).isFalse();
  }

  @Test
  void badTenantListsAreRefusedNamingTheEntry() {
    for (Object bad : List.of(new JsonArray(), new JsonArray().add("*").add("tenant-a"), new JsonArray().add("a b"),
        new JsonArray().add(5), "tenant-a", 7)) {
      JsonObject http = new JsonObject().put("tokens", new JsonArray().add(new JsonObject().put("name", "bot")
          .put("tokenHash", TOKEN_HASH).put("tenants", bad)));
      assertThatThrownBy(() -> HttpOptions.fromConfig(http, null)).as(String.valueOf(bad))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'bot'").hasMessageContaining("tenant");
    }
    assertThatThrownBy(() -> HttpOptions.fromConfig(new JsonObject().put("fourEyes", "yes"), null))
        .hasMessageContaining("http.fourEyes");
  }

  @Test
  void viewersReadButOnlyApproversDecideAndOnlyAgentsSubmit() {
    assertThat(Role.VIEWER.may(Role.Permission.READ)).isTrue();
    assertThat(Role.VIEWER.may(Role.Permission.DECIDE)).isFalse();
    assertThat(Role.VIEWER.may(Role.Permission.RECONCILE)).isFalse();
    assertThat(Role.APPROVER.may(Role.Permission.DECIDE)).isTrue();
    assertThat(Role.AGENT.may(Role.Permission.SUBMIT)).isTrue();
    assertThat(Role.AGENT.may(Role.Permission.DECIDE)).isFalse();
  }
}
