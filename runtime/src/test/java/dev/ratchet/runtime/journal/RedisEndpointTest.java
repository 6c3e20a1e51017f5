package dev.ratchet.runtime.journal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A Redis URL read as the Vert.x Redis client reads it, its password never shown. */
class RedisEndpointTest {

  @Test
  void aTcpUrlGivesHostPortUserPasswordAndDatabase() {
    RedisEndpoint e = RedisEndpoint.parse("redis://app:p%40ss:w@redis.internal:6380/4");
    assertThat(e.address().host()).isEqualTo("redis.internal");
    assertThat(e.address().port()).isEqualTo(6380);
    assertThat(e.user()).isEqualTo("app");
    assertThat(e.password()).isEqualTo("p@ss:w");
    assertThat(e.db()).isEqualTo(4);
    assertThat(e.tls()).isFalse();
    assertThat(e.toString()).isEqualTo("redis://redis.internal:6380/4 as app").doesNotContain("p@ss");
  }

  @Test
  void defaultsAndQueryParametersAreReadAsTheClientReadsThem() {
    RedisEndpoint plain = RedisEndpoint.parse("redis://localhost");
    assertThat(plain.address().port()).isEqualTo(6379);
    assertThat(plain.authenticates()).isFalse();
    assertThat(plain.db()).isZero();

    RedisEndpoint passwordOnly = RedisEndpoint.parse("rediss://:only@[::1]:7000?db=2");
    assertThat(passwordOnly.tls()).isTrue();
    assertThat(passwordOnly.address().host()).isEqualTo("::1");
    assertThat(passwordOnly.user()).isNull();
    assertThat(passwordOnly.password()).isEqualTo("only");
    assertThat(passwordOnly.db()).isEqualTo(2);

    RedisEndpoint query = RedisEndpoint.parse("redis://h:1?user=u&password=pw&maxPoolSize=4");
    assertThat(query.user()).isEqualTo("u");
    assertThat(query.password()).isEqualTo("pw");
  }

  @Test
  void aUnixSocketUrlGivesItsPath() {
    RedisEndpoint e = RedisEndpoint.parse("unix:///tmp/redis%20dir/redis.sock?db=1");
    assertThat(e.address().isDomainSocket()).isTrue();
    assertThat(e.address().path()).isEqualTo("/tmp/redis dir/redis.sock");
    assertThat(e.db()).isEqualTo(1);
  }

  @Test
  void aUrlItCannotReadFailsWithoutItsPassword() {
    assertThatThrownBy(() -> RedisEndpoint.parse("http://u:hunter2@h/0"))
        .hasMessageContaining("scheme").hasMessageNotContaining("hunter2");
    assertThatThrownBy(() -> RedisEndpoint.parse("redis://u:hunter2@h/zero"))
        .hasMessageContaining("database").hasMessageNotContaining("hunter2");
  }
}
