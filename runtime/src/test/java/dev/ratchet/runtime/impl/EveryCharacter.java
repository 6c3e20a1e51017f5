package dev.ratchet.runtime.impl;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.LinkedHashMap;
import java.util.Map;

/** Text that a JSON writer must escape exactly as Vert.x's codec does, for the writers' tests. */
final class EveryCharacter {

  private static final int CHUNK = 97;

  private EveryCharacter() {
  }

  /**
   * Every character below U+3000, then an emoji, the line and paragraph separators, U+FFFF and a
   * lone surrogate, cut into chunks each used as a key, a value and an array element of an
   * object; the objects by where their chunk starts.
   */
  static Map<Integer, JsonObject> inObjects() {
    StringBuilder all = new StringBuilder();
    for (char c = 0; c < 0x3000; c++) {
      all.append(c);
    }
    all.append("\uD83D\uDE00\u2028\u2029\uFFFF\uD800");
    Map<Integer, JsonObject> objects = new LinkedHashMap<>();
    for (int from = 0; from < all.length(); from += CHUNK) {
      String chunk = all.substring(from, Math.min(all.length(), from + CHUNK));
      objects.put(from, new JsonObject().put(chunk, chunk).put("k", new JsonArray().add(chunk)));
    }
    return objects;
  }
}
