package dev.ratchet.runtime.impl;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
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
    StringBuilder sb = new StringBuilder();
    write(sb, value);
    return sb.toString();
  }

  // looking a digest up in the security providers costs more than hashing a call's arguments
  private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  });
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  public static String sha256Hex(String text) {
    MessageDigest md = SHA256.get();
    md.reset();
    byte[] digest = md.digest(text.getBytes(StandardCharsets.UTF_8));
    // HexFormat showed up in profiles of the turn path; a table lookup is several times cheaper
    char[] out = new char[digest.length * 2];
    for (int i = 0; i < digest.length; i++) {
      out[2 * i] = HEX[(digest[i] >> 4) & 0xf];
      out[2 * i + 1] = HEX[digest[i] & 0xf];
    }
    return new String(out);
  }

  private static void write(StringBuilder sb, Object value) {
    if (value instanceof JsonObject) {
      value = ((JsonObject) value).getMap();
    } else if (value instanceof JsonArray) {
      value = ((JsonArray) value).getList();
    }
    if (value instanceof Map) {
      TreeMap<String, Object> sorted = new TreeMap<>();
      ((Map<?, ?>) value).forEach((k, v) -> sorted.put(String.valueOf(k), v));
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
