package dev.ratchet.runtime.journal;

import org.junit.jupiter.api.Test;

import java.nio.channels.ClosedChannelException;

import static org.assertj.core.api.Assertions.assertThat;

/** An error from the Redis client reads as words, also when the client gave it no message. */
class JournalErrorReasonTest {

  @Test
  void aConnectionClosedWithoutAMessageSaysSo() {
    assertThat(RedisConnections.reason(new RuntimeException(new ClosedChannelException())))
        .isEqualTo("the connection was closed");
  }

  @Test
  void theFirstMessageInTheCausesIsTheReason() {
    assertThat(RedisConnections.reason(new RuntimeException(null, new IllegalStateException("NOAUTH Authentication required."))))
        .isEqualTo("NOAUTH Authentication required.");
  }

  @Test
  void anErrorWithNoMessageAnywhereIsNamedByItsKind() {
    assertThat(RedisConnections.reason(new IllegalStateException())).isEqualTo("java.lang.IllegalStateException");
  }
}
