package dev.ratchet.runtime.journal;

import io.vertx.core.buffer.Buffer;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.impl.RequestImpl;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** A journal request written by the journal reaches Redis as the same bytes the client would send. */
class RespRequestTest {

  @Test
  void aScriptRunIsEncodedByteForByteAsTheClientEncodesIt() {
    RespRequest request = new RespRequest(Command.EVALSHA, "EVALSHA", new Object[] {
        "0123456789abcdef0123456789abcdef01234567", 2L, "ratchet:{s-1}:meta", "ratchet:{s-1}:events".getBytes(),
        0L, 7L, 1234567890123L, -1L, -905L, Long.MIN_VALUE, Long.MAX_VALUE, "", new byte[0],
        "{\"text\":\"caf\u00e9 \u2603 \ud83d\ude00\"}", "x".repeat(1000).getBytes()});

    assertThat(request.encodable()).isTrue();
    Buffer expected = ((RequestImpl) request.request()).encode();
    assertThat(request.encode().toString(StandardCharsets.ISO_8859_1)).isEqualTo(expected.toString(StandardCharsets.ISO_8859_1));
  }

  @Test
  void theEncodedRequestTakesExactlyItsOwnLength() {
    RespRequest request = new RespRequest(Command.EVALSHA, "EVALSHA", new Object[] {"sha", 1L, "key", "v"});

    Buffer encoded = request.encode();

    String text = "*5\r\n$7\r\nevalsha\r\n$3\r\nsha\r\n$1\r\n1\r\n$3\r\nkey\r\n$1\r\nv\r\n";
    assertThat(encoded.toString(StandardCharsets.US_ASCII)).isEqualTo(text);
    assertThat(encoded.length()).isEqualTo(text.length());
  }

  @Test
  void argumentsOfOtherTypesAreLeftToTheClient() {
    RespRequest request = new RespRequest(Command.EVALSHA, "EVALSHA", new Object[] {"sha", 0L, 3});

    assertThat(request.encodable()).isFalse();
    assertThat(((RequestImpl) request.request()).encode().toString()).contains("$1\r\n3\r\n");
  }
}
