package dev.ratchet.runtime.impl;

import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;

/**
 * JSON text written straight into a builder, character for character as the JSON codec writes it.
 * Hot paths use it where building a {@code JsonObject} and running the codec over it would allocate
 * an encoder and a map for a handful of fields.
 */
public final class JsonText {

  private static final char[] HEX_UPPER = "0123456789ABCDEF".toCharArray();

  private JsonText() {
  }

  /** Appends {@code s} as a JSON string, quotes included. */
  public static StringBuilder string(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0, n = s.length(); i < n; i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c >= 0x20) {
        sb.append(c);
      } else if (c == '\n') {
        sb.append("\\n");
      } else if (c == '\r') {
        sb.append("\\r");
      } else if (c == '\t') {
        sb.append("\\t");
      } else if (c == '\b') {
        sb.append("\\b");
      } else if (c == '\f') {
        sb.append("\\f");
      } else {
        sb.append("\\u00").append(HEX_UPPER[c >> 4]).append(HEX_UPPER[c & 0xf]);
      }
    }
    return sb.append('"');
  }

  /**
   * Appends {@code value} as the codec ({@code Json.encode}) writes it, character for character:
   * objects, arrays, maps with string keys, lists, strings, booleans, null and integral numbers are
   * written here; anything else (floating point, instants, binary, beans) is handed to the codec,
   * whose text for a value does not depend on what surrounds it.
   */
  public static StringBuilder value(StringBuilder sb, Object value) {
    if (value instanceof JsonObject json) {
      return map(sb, json.getMap());
    }
    if (value instanceof String s) {
      return string(sb, s);
    }
    if (value == null) {
      return sb.append("null");
    }
    if (value instanceof Integer || value instanceof Long || value instanceof Boolean || value instanceof Short
        || value instanceof Byte || value instanceof java.math.BigInteger) {
      return sb.append(value);
    }
    if (value instanceof JsonArray array) {
      return list(sb, array.getList());
    }
    if (value instanceof Map<?, ?> map) {
      return map(sb, map);
    }
    if (value instanceof List<?> list) {
      return list(sb, list);
    }
    return sb.append(Json.encode(value));
  }

  private static final ScratchText SCRATCH = new ScratchText(256);

  /** {@link #value} as a string, written in this thread's builder so that only the string is new. */
  public static String encode(Object value) {
    return value(SCRATCH.get(), value).toString();
  }

  private static StringBuilder map(StringBuilder sb, Map<?, ?> map) {
    int start = sb.length();
    sb.append('{');
    boolean first = true;
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (!(e.getKey() instanceof String key)) {
        // the codec has its own rules for other keys
        sb.setLength(start);
        return sb.append(Json.encode(map));
      }
      if (!first) {
        sb.append(',');
      }
      first = false;
      string(sb, key).append(':');
      value(sb, e.getValue());
    }
    return sb.append('}');
  }

  private static StringBuilder list(StringBuilder sb, List<?> list) {
    sb.append('[');
    if (list instanceof java.util.RandomAccess) {
      for (int i = 0, n = list.size(); i < n; i++) {
        if (i > 0) {
          sb.append(',');
        }
        value(sb, list.get(i));
      }
    } else {
      boolean first = true;
      for (Object o : list) {
        if (!first) {
          sb.append(',');
        }
        first = false;
        value(sb, o);
      }
    }
    return sb.append(']');
  }

  /** Appends {@code ,"name":} (without the comma for the first field of an object). */
  public static StringBuilder name(StringBuilder sb, String name) {
    if (sb.charAt(sb.length() - 1) != '{') {
      sb.append(',');
    }
    return string(sb, name).append(':');
  }

  /** The number of bytes {@code s} takes in UTF-8, without encoding it. */
  public static int utf8Length(String s) {
    int bytes = 0;
    for (int i = 0, n = s.length(); i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        bytes++;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
        bytes += 4;
        i++;
      } else {
        // a lone surrogate is written as '?' (one byte) by the UTF-8 encoder
        bytes += Character.isSurrogate(c) ? 1 : 3;
      }
    }
    return bytes;
  }
}
