package dev.ratchet.runtime.impl;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * JSON with object keys sorted, so that the same arguments always hash the same whatever order a
 * model wrote them in.
 */
public final class CanonicalJson {

  private CanonicalJson() {
  }

  public static String encode(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof JsonObject && ((JsonObject) value).isEmpty()) {
      // most calls have no arguments or few; this spares a sorted copy and a builder for the commonest
      return "{}";
    }
    StringBuilder sb = new StringBuilder();
    write(sb, value);
    return sb.toString();
  }

  /** A map with keys other than strings: sorted by their text, the last of equal texts kept. */
  private static void writeSorted(StringBuilder sb, Map<?, ?> map) {
    TreeMap<String, Object> sorted = new TreeMap<>();
    map.forEach((k, v) -> sorted.put(String.valueOf(k), v));
    sb.append('{');
    boolean first = true;
    for (Map.Entry<String, Object> e : sorted.entrySet()) {
      if (!first) {
        sb.append(',');
      }
      first = false;
      JsonText.string(sb, e.getKey());
      sb.append(':');
      write(sb, e.getValue());
    }
    sb.append('}');
  }

  /** The SHA-256 of {@code text}'s UTF-8, as 64 lowercase hex digits. */
  public static String sha256Hex(String text) {
    return Sha256.hex(text);
  }

  /** Appends {@code value} as {@link #encode} writes it. */
  public static StringBuilder append(StringBuilder sb, Object value) {
    write(sb, value);
    return sb;
  }

  private static void write(StringBuilder sb, Object value) {
    if (value instanceof JsonObject) {
      value = ((JsonObject) value).getMap();
    } else if (value instanceof JsonArray) {
      value = ((JsonArray) value).getList();
    }
    if (value instanceof Map) {
      Map<?, ?> map = (Map<?, ?>) value;
      if (map.isEmpty()) {
        sb.append("{}");
        return;
      }
      String[] names = new String[map.size()];
      int n = 0;
      for (Object k : map.keySet()) {
        if (!(k instanceof String) || n == names.length) {
          writeSorted(sb, map);
          return;
        }
        names[n++] = (String) k;
      }
      // the order a TreeMap of the keys has, without building one
      Arrays.sort(names, 0, n);
      sb.append('{');
      for (int i = 0; i < n; i++) {
        if (i > 0) {
          sb.append(',');
        }
        JsonText.string(sb, names[i]);
        sb.append(':');
        write(sb, map.get(names[i]));
      }
      sb.append('}');
    } else if (value instanceof Iterable) {
      sb.append('[');
      boolean first = true;
      for (Object o : (Iterable<?>) value) {
        if (!first) {
          sb.append(',');
        }
        first = false;
        write(sb, o);
      }
      sb.append(']');
    } else if (value instanceof String) {
      // the codec's own escaping, character for character: hashes of arguments journaled earlier
      // must stay the same
      JsonText.string(sb, (String) value);
    } else if (value == null || value instanceof Boolean || value instanceof Integer || value instanceof Long
        || value instanceof Short || value instanceof Byte || value instanceof java.math.BigInteger) {
      sb.append(value);
    } else {
      // floating point and the codec's special types (instants, binary) are rare in arguments: the
      // codec's own rules keep their text exactly as it always was
      sb.append(io.vertx.core.json.Json.encode(value));
    }
  }
}
