package dev.ratchet.runtime.impl;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The spellings a secret takes on its way out of a process: as it is, JSON-escaped, URL-encoded,
 * base64 (alone or inside a longer base64 text) and hex. A redactor that only looked for the raw
 * value would miss a token that a server echoed inside a JSON string, a query string or an
 * {@code Authorization: Basic} header.
 */
public final class SecretForms {

  /**
   * The shortest part of a base64 text that is looked for. The parts found inside a longer base64
   * text are shorter than the secret; below this length they would blank ordinary words.
   */
  static final int MIN_BASE64_CORE = 8;

  private static final char[] HEX_LOWER = "0123456789abcdef".toCharArray();
  private static final char[] HEX_UPPER = "0123456789ABCDEF".toCharArray();

  private SecretForms() {
  }

  /** Every form of {@code value}, the raw value first; no duplicates. */
  public static List<String> of(String value) {
    Set<String> forms = new LinkedHashSet<>();
    forms.add(value);
    for (String json : jsonForms(value)) {
      forms.add(json);
      // JSON text carried inside another JSON string (an MCP text content holding JSON) is escaped twice
      forms.add(jsonEscape(json, false, false, false));
    }
    forms.addAll(urlForms(value));
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    forms.addAll(base64Forms(bytes, Base64.getEncoder()));
    forms.addAll(base64Forms(bytes, Base64.getUrlEncoder()));
    forms.add(hex(bytes, HEX_LOWER));
    forms.add(hex(bytes, HEX_UPPER));
    return new ArrayList<>(forms);
  }

  /** As Jackson and Vert.x write it, and as encoders that also escape {@code /} or everything beyond ASCII do. */
  private static List<String> jsonForms(String value) {
    List<String> out = new ArrayList<>();
    for (boolean slash : new boolean[] {false, true}) {
      for (boolean nonAscii : new boolean[] {false, true}) {
        out.add(jsonEscape(value, slash, nonAscii, false));
        out.add(jsonEscape(value, slash, nonAscii, true));
      }
    }
    return out;
  }

  static String jsonEscape(String s, boolean slash, boolean nonAscii, boolean upperHex) {
    char[] hexDigits = upperHex ? HEX_UPPER : HEX_LOWER;
    StringBuilder sb = new StringBuilder(s.length() + 8);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        case '\b' -> sb.append("\\b");
        case '\f' -> sb.append("\\f");
        case '/' -> sb.append(slash ? "\\/" : "/");
        default -> {
          if (c < 0x20 || nonAscii && c > 0x7e) {
            sb.append("\\u").append(hexDigits[c >> 12 & 0xf]).append(hexDigits[c >> 8 & 0xf])
                .append(hexDigits[c >> 4 & 0xf]).append(hexDigits[c & 0xf]);
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.toString();
  }

  /**
   * Form encoding (space as {@code +}) and percent encoding (space as {@code %20}), with upper and
   * lower case hex, keeping either only RFC 3986's unreserved characters or also those that
   * {@code URLEncoder} and {@code encodeURIComponent} leave alone.
   */
  private static List<String> urlForms(String value) {
    List<String> out = new ArrayList<>();
    for (String kept : List.of("-._~", "-._*", "-._~!*'()")) {
      for (boolean plusForSpace : new boolean[] {true, false}) {
        for (char[] digits : List.of(HEX_UPPER, HEX_LOWER)) {
          out.add(urlEncode(value, kept, plusForSpace, digits));
        }
      }
    }
    return out;
  }

  private static String urlEncode(String value, String kept, boolean plusForSpace, char[] digits) {
    StringBuilder sb = new StringBuilder(value.length() + 16);
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || kept.indexOf(c) >= 0) {
        sb.append((char) c);
      } else if (c == ' ' && plusForSpace) {
        sb.append('+');
      } else {
        sb.append('%').append(digits[c >> 4]).append(digits[c & 0xf]);
      }
    }
    return sb.toString();
  }

  /**
   * The secret's own base64 (with and without padding), and the parts of its base64 that stay the
   * same wherever it sits inside a longer base64 text. Base64 turns each 3 bytes into 4 characters,
   * so a secret preceded by {@code k} bytes ({@code k} = 0, 1 or 2 modulo 3), as in
   * {@code Basic base64(user:secret)}, is encoded at one of three alignments. At each alignment the
   * first and last characters also carry bits of the neighbouring bytes and change with them; the
   * characters in between carry only the secret's bits. Those stable cores are what is matched.
   */
  private static List<String> base64Forms(byte[] bytes, Base64.Encoder encoder) {
    List<String> out = new ArrayList<>();
    out.add(encoder.encodeToString(bytes));
    out.add(encoder.withoutPadding().encodeToString(bytes));
    for (int k = 0; k < 3; k++) {
      byte[] shifted = new byte[k + bytes.length];
      System.arraycopy(bytes, 0, shifted, k, bytes.length);
      String encoded = encoder.withoutPadding().encodeToString(shifted);
      long firstBit = 8L * k;
      long endBit = 8L * (k + bytes.length);
      // character i holds bits [6i, 6i + 6): it is stable when they all belong to the secret
      int from = (int) ((firstBit + 5) / 6);
      int to = (int) (endBit / 6);
      if (to - from >= MIN_BASE64_CORE) {
        out.add(encoded.substring(from, to));
      }
    }
    return out;
  }

  private static String hex(byte[] bytes, char[] digits) {
    StringBuilder sb = new StringBuilder(bytes.length * 2);
    for (byte b : bytes) {
      sb.append(digits[(b & 0xff) >> 4]).append(digits[b & 0xf]);
    }
    return sb.toString();
  }
}
