package dev.ratchet.runtime.impl;

import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class JsonTextTest {

  @Test
  void everyCharacterIsWrittenAsTheJsonCodecWritesIt() {
    EveryCharacter.inObjects().forEach((from, value) ->
        assertEquals(Json.encode(value), JsonText.encode(value), "chunk at " + from));
  }

  @Test
  void scalarsNestingAndTheCodecsOwnTypesAreWrittenAsTheJsonCodecWritesThem() {
    Map<Object, Object> otherKeys = new LinkedHashMap<>();
    otherKeys.put(2, "two");
    otherKeys.put("one", 1);
    JsonObject value = new JsonObject()
        .put("z", 1).put("a", -2L).put("m", Long.MAX_VALUE).put("big", new BigInteger("123456789012345678901234567890"))
        .put("dec", new BigDecimal("1.50")).put("d", 1.5).put("e", 1e-7).put("f", 3.0f).put("nan", Double.NaN)
        .put("t", true).put("n", (Object) null).put("short", (short) 3).put("byte", (byte) -1)
        .put("when", Instant.parse("2026-12-01T00:00:00Z")).put("bytes", new byte[] {1, 2, 3})
        .put("nested", new JsonObject().put("y", new JsonArray().add(new JsonObject().put("b", 2).put("a", 1)).add(0))
            .put("x", new JsonArray()))
        .put("map", Map.of("k", List.of(1, "v"))).put("linked", new LinkedList<>(List.of("a", 2)))
        .put("otherKeys", otherKeys).put("empty", new JsonObject());
    assertEquals(Json.encode(value), JsonText.encode(value));
    for (Object scalar : List.of("text", 7, 7L, true, 2.5, new JsonArray().add("x").addNull())) {
      assertEquals(Json.encode(scalar), JsonText.encode(scalar));
    }
    assertEquals(Json.encode(null), JsonText.encode(null));
  }

  @Test
  void aBeanIsWrittenByTheCodec() {
    record Refund(String order, int cents) {
    }
    assertEquals(Json.encode(new Refund("A-1", 4000)), JsonText.encode(new Refund("A-1", 4000)));
    assertEquals(Json.encode(new JsonObject().put("refund", new Refund("A-1", 1))),
        JsonText.encode(new JsonObject().put("refund", new Refund("A-1", 1))));
  }
}
