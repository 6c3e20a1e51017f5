package dev.ratchet.verticles.http;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PasswordHashTest {

  @Test
  void aPasswordVerifiesAgainstItsOwnSaltedHashOnly() {
    String hash = PasswordHash.hashPassword("s3cret".toCharArray(), 1_000);
    assertThat(hash).startsWith("pbkdf2-sha256$1000$").doesNotContain("s3cret");
    assertThat(PasswordHash.verifyPassword("s3cret".toCharArray(), hash)).isTrue();
    assertThat(PasswordHash.verifyPassword("s3cret!".toCharArray(), hash)).isFalse();
    assertThat(PasswordHash.hashPassword("s3cret".toCharArray(), 1_000)).as("a fresh salt each time").isNotEqualTo(hash);
  }

  @Test
  void malformedOrTamperedHashesNeverVerify() {
    String hash = PasswordHash.hashPassword("pw".toCharArray(), 1_000);
    assertThat(PasswordHash.verifyPassword("pw".toCharArray(), hash.replace("$1000$", "$1001$"))).isFalse();
    assertThat(PasswordHash.verifyPassword("pw".toCharArray(), "pw")).isFalse();
    assertThat(PasswordHash.verifyPassword("pw".toCharArray(), null)).isFalse();
    assertThat(PasswordHash.verifyPassword("pw".toCharArray(), "pbkdf2-sha256$x$y$z")).isFalse();
  }

  @Test
  void tokensAreStoredAsHexSha256() {
    assertThat(PasswordHash.hashToken("abc"))
        .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assertThat(PasswordHash.newToken()).startsWith("rt_").hasSizeGreaterThan(40).isNotEqualTo(PasswordHash.newToken());
  }
}
