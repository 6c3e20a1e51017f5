package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.impl.CanonicalJson;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class TurnTextTest {

  private static final Turn TURN = new Turn("t-\u00e9 \"1\"", List.of(
      new ToolCall("search", new JsonObject().put("q", "refund\n").put("limit", 5)
          .put("filters", new JsonObject().put("z", true).put("a", new JsonArray().add(1.5).addNull()))),
      new ToolCall("refund", new JsonObject().put("order", "A-1").put("cents", 4000L), "toolu_01"),
      ToolCall.unparsable("broken", "{\"order\":", "call_9"),
      new ToolCall("ping", null)));

  @Test
  void theSpecIsTheTurnsJsonWithItsCatalogueAndReplyAddress() {
    assertEquals(TURN.toJson().put(Turn.CATALOGUE, "cat-1").encode(),
        new String(TurnText.specBytes(TURN, "cat-1", null), StandardCharsets.UTF_8));
    assertEquals(TURN.toJson().put(Turn.CATALOGUE, "cat-1").put(Turn.REPLY_ADDRESS, "agent.replies").encode(),
        new String(TurnText.specBytes(TURN, "cat-1", "agent.replies"), StandardCharsets.UTF_8));
    assertEquals(TURN.toJson().encode(), new String(TurnText.specBytes(TURN, null, null), StandardCharsets.UTF_8));
  }

  @Test
  void theHashIsThatOfTheTurnsCanonicalJson() {
    assertEquals(CanonicalJson.sha256Hex(CanonicalJson.encode(TURN.toJson())), TurnText.hash(TURN));
    Turn reordered = new Turn(TURN.turnId(), List.of(
        new ToolCall("search", new JsonObject().put("filters", new JsonObject().put("a", new JsonArray().add(1.5).addNull())
            .put("z", true)).put("limit", 5).put("q", "refund\n")),
        TURN.calls().get(1), TURN.calls().get(2), TURN.calls().get(3)));
    assertEquals(TurnText.hash(TURN), TurnText.hash(reordered));
    assertNotEquals(TurnText.hash(TURN), TurnText.hash(new Turn(TURN.turnId(), TURN.calls().subList(0, 3))));
  }
}
