package dev.ratchet.runtime.journal;

import io.vertx.core.buffer.Buffer;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Replies decoded from bytes cut anywhere, as TCP may deliver them. */
class RespReaderTest {

  private static final String REPLIES = "+OK\r\n-ERR no\r\n:-12\r\n$4\r\nh\u00e9l\r\n$-1\r\n*3\r\n$1\r\na\r\n*-1\r\n*2\r\n:7\r\n$0\r\n\r\n";

  private final List<String> seen = new ArrayList<>();
  private final RespReader.Replies recorder = new RespReader.Replies() {
    @Override
    public void reply(Response reply) {
      seen.add(reply == null ? "nil" : reply.type() + " " + reply);
    }

    @Override
    public void error(String message) {
      seen.add("error " + message);
    }
  };

  @Test
  void repliesCutAtEveryByteDecodeAsRepliesReadAtOnce() {
    byte[] bytes = REPLIES.getBytes(StandardCharsets.UTF_8);
    RespReader whole = new RespReader();
    whole.read(Buffer.buffer(bytes), recorder);
    List<String> expected = List.copyOf(seen);
    assertThat(expected).containsExactly("SIMPLE OK", "error ERR no", "NUMBER -12", "BULK h\u00e9l", "nil",
        "MULTI [a, null, [7, ]]");

    for (int cut = 1; cut < bytes.length; cut++) {
      seen.clear();
      RespReader reader = new RespReader();
      reader.read(Buffer.buffer().appendBytes(bytes, 0, cut), recorder);
      reader.read(Buffer.buffer().appendBytes(bytes, cut, bytes.length - cut), recorder);
      assertThat(seen).as("cut at byte " + cut).isEqualTo(expected);
      assertThat(reader.partial()).isFalse();
    }
    seen.clear();
    RespReader oneByOne = new RespReader();
    for (byte b : bytes) {
      oneByOne.read(Buffer.buffer(new byte[] {b}), recorder);
    }
    assertThat(seen).isEqualTo(expected);
  }

  @Test
  void bytesThatAreNotRespAreRefusedRatherThanMatchedToTheWrongRequest() {
    assertThatThrownBy(() -> new RespReader().read(Buffer.buffer("HTTP/1.1 400\r\n"), recorder))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("0x48");
    assertThatThrownBy(() -> new RespReader().read(Buffer.buffer("$x1\r\n"), recorder))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("malformed");
    assertThatThrownBy(() -> new RespReader().read(Buffer.buffer("*1\r\n".repeat(40) + ":1\r\n"), recorder))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("nested");
  }
}
