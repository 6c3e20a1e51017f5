package dev.ratchet.verticles.http.impl;

import dev.ratchet.verticles.http.HttpOptions;
import dev.ratchet.verticles.http.Role;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The lockout's arithmetic and its memory bound, on a clock the test moves. */
class LoginThrottleTest {

  private final AtomicLong now = new AtomicLong(1_000_000);
  private final LoginThrottle throttle = new LoginThrottle(HttpOptions.create()
      .user("ana", Role.APPROVER, "pbkdf2-sha256$1$AAAA$AAAA")
      .user("admin", Role.APPROVER, "pbkdf2-sha256$1$AAAA$AAAA"), now::get);

  @Test
  void theLockDoublesFromOneSecondUpToFifteenMinutes() {
    for (int i = 0; i < 5; i++) {
      assertThat(throttle.begin("ana", "10.0.0.1")).isZero();
    }
    long[] expected = {1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000, 512_000, 900_000, 900_000};
    for (long lock : expected) {
      assertThat(throttle.begin("ana", "10.0.0.1")).isZero();
      assertThat(throttle.begin("ana", "10.0.0.1")).isEqualTo(lock);
      now.addAndGet(lock);
    }
  }

  @Test
  void aLockRunsFromWhenTheFailureIsJudgedSoASlowPasswordCheckDoesNotShortenIt() {
    for (int i = 0; i < 6; i++) {
      assertThat(throttle.begin("ana", "10.0.0.1")).isZero();
    }
    now.addAndGet(1_500);
    throttle.failed("ana", "10.0.0.1");
    assertThat(throttle.begin("ana", "10.0.0.1")).isEqualTo(1_000);
    assertThat(throttle.begin("ana", "10.0.0.9")).as("only the name from that address is locked").isZero();
    now.addAndGet(1_000);
    assertThat(throttle.begin("ana", "10.0.0.1")).isZero();
  }

  @Test
  void aQuietNameIsForgottenAfterTheLongestLock() {
    for (int i = 0; i < 6; i++) {
      throttle.begin("ana", "10.0.0.1");
    }
    assertThat(throttle.failures("ana", "10.0.0.1")).isEqualTo(6);
    now.addAndGet(1_000 + 900_001);
    assertThat(throttle.begin("ana", "10.0.0.1")).isZero();
    assertThat(throttle.failures("ana", "10.0.0.1")).isEqualTo(1);
  }

  @Test
  void sprayingUnknownNamesAndAddressesNeitherGrowsWithoutBoundNorResetsAUsersLock() {
    for (int i = 0; i < 6; i++) {
      throttle.begin("ana", "10.0.0.1");
    }
    for (int i = 0; i < 3 * LoginThrottle.MAX_TRACKED; i++) {
      throttle.begin("name-" + i, "10.1." + (i / 256) + "." + (i % 256));
    }
    assertThat(throttle.tracked()).isLessThanOrEqualTo(3 * LoginThrottle.MAX_TRACKED);
    assertThat(throttle.begin("ana", "10.0.0.1")).isPositive();
  }

  @Test
  void wrongPasswordsForOneNameDoNotLockOtherUsersOfTheSameAddressOut() {
    for (int i = 0; i < 6; i++) {
      throttle.begin("ana", "10.0.0.1");
      throttle.failed("ana", "10.0.0.1");
    }
    assertThat(throttle.begin("ana", "10.0.0.1")).as("the guessed name is locked from that address").isPositive();
    assertThat(throttle.begin("admin", "10.0.0.1")).as("the admin still logs in from that address").isZero();
    throttle.succeeded("admin", "10.0.0.1");
    assertThat(throttle.begin("ana", "10.0.0.7")).as("the guessed name still logs in from elsewhere").isZero();
  }

  @Test
  void anAddressIsLockedOnlyAfterTheHigherPerAddressCap() {
    int perAddress = HttpOptions.create().loginAddressFreeFailures();
    assertThat(perAddress).isGreaterThan(HttpOptions.create().loginFreeFailures());
    for (int i = 0; i < perAddress; i++) {
      assertThat(throttle.begin("name-" + i, "10.0.0.1")).as("attempt %d", i).isZero();
    }
    assertThat(throttle.begin("name-x", "10.0.0.1")).isZero();
    assertThat(throttle.begin("admin", "10.0.0.1")).as("past the cap the address is locked for everyone").isPositive();
    assertThat(throttle.begin("admin", "10.0.0.2")).isZero();
  }
}
