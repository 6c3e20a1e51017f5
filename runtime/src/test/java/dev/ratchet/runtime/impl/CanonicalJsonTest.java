package dev.ratchet.runtime.impl;

import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.IdempotencyKey;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CanonicalJsonTest {

  /** Keys sorted at every depth, written by the JSON codec itself: what canonical text must equal. */
  private static Object sortedCopy(Object value) {
    if (value instanceof JsonObject) {
      value = ((JsonObject) value).getMap();
    } else if (value instanceof JsonArray) {
      value = ((JsonArray) value).getList();
    }
    if (value instanceof Map) {
      TreeMap<String, Object> sorted = new TreeMap<>();
      ((Map<?, ?>) value).forEach((k, v) -> sorted.put(String.valueOf(k), sortedCopy(v)));
      return sorted;
    }
    if (value instanceof List) {
      List<Object> copy = new ArrayList<>();
      ((List<?>) value).forEach(v -> copy.add(sortedCopy(v)));
      return copy;
    }
    return value;
  }

  @Test
  void everyCharacterIsWrittenAsTheJsonCodecWritesIt() {
    EveryCharacter.inObjects().forEach((from, args) ->
        assertEquals(Json.encode(sortedCopy(args)), CanonicalJson.encode(args), "chunk at " + from));
  }

  @Test
  void scalarsAndNestingAreWrittenAsTheJsonCodecWritesThem() {
    JsonObject args = new JsonObject()
        .put("z", 1).put("a", -2L).put("m", Long.MAX_VALUE).put("big", new BigInteger("123456789012345678901234567890"))
        .put("d", 1.5).put("e", 1e-7).put("f", 3.0f).put("t", true).put("n", (Object) null)
        .put("when", Instant.parse("2026-12-01T00:00:00Z")).put("bytes", new byte[] {1, 2, 3})
        .put("nested", new JsonObject().put("y", new JsonArray().add(new JsonObject().put("b", 2).put("a", 1)).add(0))
            .put("x", new JsonArray()))
        .put("empty", new JsonObject());
    assertEquals(Json.encode(sortedCopy(args)), CanonicalJson.encode(args));
  }

  @Test
  void theSameArgumentsInAnotherOrderHaveTheSameText() {
    JsonObject a = new JsonObject().put("amount", 40).put("order", new JsonObject().put("id", "A-1").put("lines", 2));
    JsonObject b = new JsonObject().put("order", new JsonObject().put("lines", 2).put("id", "A-1")).put("amount", 40);
    assertEquals(CanonicalJson.encode(a), CanonicalJson.encode(b));
  }

  @Test
  void idempotencyKeysOfCallsJournaledByEarlierReleasesDoNotChange() {
    // computed by the release before this encoder: a provider deduplicating on these keys must see
    // the same key when a call journaled then is retried now
    JsonObject args = new JsonObject().put("order", "A-1\n\"quoted\" \u00e9\u0001").put("amount", 40)
        .put("lines", new JsonArray().add(new JsonObject().put("sku", "x").put("qty", 2L)).add(true).addNull());
    CallId call = CallId.of("session-1", "turn-1", 3);
    assertEquals("rk_725fb602f1482bbccfcf5a8ca5ee897b", IdempotencyKey.of(call, args).value());
    assertEquals("e4331371c11825496fd580c789707c678c8b47c2c86199a3d8f1e3e0f21a9fe4", IdempotencyKey.argumentsHash(args));
  }
}
