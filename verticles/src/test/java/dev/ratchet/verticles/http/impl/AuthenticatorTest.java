package dev.ratchet.verticles.http.impl;

import dev.ratchet.verticles.http.HttpOptions;
import dev.ratchet.verticles.http.PasswordHash;
import dev.ratchet.verticles.http.Role;
import org.junit.jupiter.api.Test;

import java.util.Base64;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Log-in checks: an unknown name costs what a known one does, and never logs in. */
class AuthenticatorTest {

  @Test
  void anUnknownNameIsCheckedAgainstAWellFormedHashAsCostlyAsTheCostliestUsers() {
    assertThat(cost(Authenticator.unknownNameHash(List.of()))).isEqualTo(PasswordHash.DEFAULT_ITERATIONS);
    List<HttpOptions.User> users = HttpOptions.create()
        .user("ana", Role.APPROVER, PasswordHash.hashPassword("a".toCharArray(), 1_000))
        .user("bob", Role.VIEWER, PasswordHash.hashPassword("b".toCharArray(), 2_000)).users();
    assertThat(cost(Authenticator.unknownNameHash(users))).isEqualTo(2_000);
  }

  private static int cost(String hash) {
    String[] parts = hash.split("\\$");
    assertThat(parts).hasSize(4);
    assertThat(parts[0]).isEqualTo("pbkdf2-sha256");
    assertThat(Base64.getDecoder().decode(parts[2])).hasSize(16);
    assertThat(Base64.getDecoder().decode(parts[3])).hasSize(32);
    assertThat(PasswordHash.iterations(hash)).isEqualTo(Integer.parseInt(parts[1]));
    return PasswordHash.iterations(hash);
  }

  @Test
  void anUnknownNameNeverLogsInWhateverThePassword() {
    Authenticator auth = new Authenticator(HttpOptions.create()
        .user("ana", Role.APPROVER, PasswordHash.hashPassword("right".toCharArray(), 1_000)));
    assertThat(auth.login("bob", "right")).isNull();
    assertThat(auth.login("bob", "")).isNull();
    assertThat(auth.login("ana", "wrong")).isNull();
    assertThat(auth.login("ana", "right")).isNotNull();
  }
}
