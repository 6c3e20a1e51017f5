package dev.ratchet.runtime;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A turn's W3C {@code traceparent}: kept when well formed, ignored otherwise, never part of the turn's identity. */
class TurnTraceparentTest {

  private static final String VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

  @Test
  void aWellFormedTraceparentIsKeptAndAMalformedOneIsIgnored() {
    Turn turn = Turn.of("t1", new ToolCall("a", new JsonObject()));
    assertThat(turn.withTraceparent(VALID).traceparent()).isEqualTo(VALID);
    assertThat(turn.withTraceparent(" " + VALID + " ").traceparent()).isEqualTo(VALID);
    assertThat(turn.withTraceparent("00-not-a-trace-01").traceparent()).isNull();
    assertThat(turn.withTraceparent(VALID.toUpperCase()).traceparent()).isNull();
    assertThat(turn.withTraceparent("ff" + VALID.substring(2)).traceparent()).isNull();
    assertThat(turn.withTraceparent("00-00000000000000000000000000000000-00f067aa0ba902b7-01").traceparent()).isNull();
    assertThat(turn.withTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01").traceparent()).isNull();
  }

  @Test
  void theTraceparentIsLeftOutOfTheTurnsIdentityButTravelsWithItsJsonForAnotherMember() {
    Turn plain = Turn.of("t1", new ToolCall("a", new JsonObject().put("x", 1)));
    Turn traced = plain.withTraceparent(VALID);
    assertThat(traced).isEqualTo(plain).hasSameHashCodeAs(plain);
    assertThat(traced.toJson()).isEqualTo(plain.toJson());
    assertThat(Turn.fromJson(traced.toJsonWithTrace()).traceparent()).isEqualTo(VALID);
    assertThat(Turn.fromJson(traced.toJsonWithTrace())).isEqualTo(plain);
  }
}
