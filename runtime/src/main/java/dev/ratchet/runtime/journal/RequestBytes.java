package dev.ratchet.runtime.journal;

import java.nio.charset.StandardCharsets;

/**
 * Arguments of a Redis request made straight into the bytes the request carries: a key or a
 * stream field joined from its parts in one array, rather than joined as a string and then encoded.
 */
final class RequestBytes {

  private RequestBytes() {
  }

  /** The UTF-8 of the parts joined; ASCII parts (the usual ids) are copied byte for byte. */
  static byte[] join(String... parts) {
    int n = 0;
    for (String p : parts) {
      for (int i = 0, len = p.length(); i < len; i++) {
        if (p.charAt(i) >= 0x80) {
          return String.join("", parts).getBytes(StandardCharsets.UTF_8);
        }
      }
      n += p.length();
    }
    byte[] out = new byte[n];
    int at = 0;
    for (String p : parts) {
      for (int i = 0, len = p.length(); i < len; i++) {
        out[at++] = (byte) p.charAt(i);
      }
    }
    return out;
  }
}
