package dev.ratchet.connectors.openapi;

import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/**
 * Percent-encoding as RFC 3986 and RFC 6570 define it: every octet of the UTF-8 form that is not
 * unreserved ({@code A-Z a-z 0-9 - . _ ~}) is written {@code %XX}. With {@code allowReserved}
 * (an OpenAPI query parameter's choice) the reserved characters and existing {@code %XX}
 * triplets pass through as well, apart from {@code #}, which would end the request target.
 */
final class UriEncoding {

  private static final String RESERVED = ":/?[]@!$&'()*+,;=";
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private UriEncoding() {
  }

  static String encode(String text, boolean allowReserved) {
    StringBuilder out = new StringBuilder(text.length());
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < bytes.length; i++) {
      int b = bytes[i] & 0xff;
      if (unreserved(b) || allowReserved && b < 0x80 && (RESERVED.indexOf(b) >= 0 || tripletAt(bytes, i))) {
        out.append((char) b);
      } else {
        out.append('%').append(HEX[b >> 4]).append(HEX[b & 0xf]);
      }
    }
    return out.toString();
  }

  static String encode(String text) {
    return encode(text, false);
  }

  /** A primitive argument as text; arrays and objects nested in a value are written as JSON. */
  static String text(Object value) {
    if (value == null) {
      return "";
    }
    if (value instanceof String s) {
      return s;
    }
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : BigDecimal.valueOf(d).toPlainString();
    }
    if (value instanceof JsonObject || value instanceof JsonArray) {
      return Json.encode(value);
    }
    return String.valueOf(value);
  }

  private static boolean unreserved(int b) {
    return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '-' || b == '.' || b == '_'
        || b == '~';
  }

  private static boolean tripletAt(byte[] bytes, int i) {
    return bytes[i] == '%' && i + 2 < bytes.length && hex(bytes[i + 1]) && hex(bytes[i + 2]);
  }

  private static boolean hex(byte b) {
    return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F';
  }
}
