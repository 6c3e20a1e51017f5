package dev.ratchet.turns;

import dev.ratchet.runtime.Ids;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TurnIdsTest {

  @Test
  void aResponseIdInRatchetsAlphabetIsTheTurnId() {
    assertThat(TurnIds.of("chatcmpl-B9MHDbslfQ", List.of("call_1"))).isEqualTo("chatcmpl-B9MHDbslfQ");
    assertThat(TurnIds.of("msg_01XFDUDYJgAACzvnptvVoYEL", List.of())).isEqualTo("msg_01XFDUDYJgAACzvnptvVoYEL");
  }

  @Test
  void anyOtherResponseIdBecomesAStableHashInTheAlphabet() {
    String spaced = TurnIds.of("resp with spaces/and slashes", List.of("call_1"));
    String long200 = TurnIds.of("r".repeat(200), List.of("call_1"));
    assertThat(spaced).startsWith("sha256:").hasSize("sha256:".length() + 32);
    assertThat(Ids.valid(spaced)).isTrue();
    assertThat(Ids.valid(long200)).isTrue();
    assertThat(TurnIds.of("resp with spaces/and slashes", List.of("call_2"))).isEqualTo(spaced);
    assertThat(TurnIds.of("resp with spaces/and slashes!", List.of("call_1"))).isNotEqualTo(spaced);
    // the first 32 hex digits of SHA-256("a b"), as every client computes them
    assertThat(TurnIds.sanitize("a b")).isEqualTo("sha256:c8687a08aa5d6ed2044328fa6a697ab8");
  }

  @Test
  void withoutAResponseIdTheToolCallIdsNameTheTurn() {
    String turn = TurnIds.of(null, List.of("call_a", "call_b"));
    assertThat(turn).startsWith("calls:sha256:");
    assertThat(TurnIds.of("", List.of("call_a", "call_b"))).isEqualTo(turn);
    assertThat(TurnIds.of(null, List.of("call_b", "call_a"))).isNotEqualTo(turn);
    assertThatThrownBy(() -> TurnIds.of(null, List.of())).hasMessageContaining("needs an id on each of its tool calls");
  }
}
