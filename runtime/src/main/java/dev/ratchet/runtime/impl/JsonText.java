package dev.ratchet.runtime.impl;

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
