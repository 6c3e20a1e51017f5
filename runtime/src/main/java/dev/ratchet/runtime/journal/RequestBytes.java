package dev.ratchet.runtime.journal;

import java.nio.charset.StandardCharsets;

/**
 * Arguments of a Redis request made straight into the bytes the request carries: text and numbers
 * copied once, a key or a stream field joined from its parts in one array, rather than made into a
 * string and then encoded.
 */
final class RequestBytes {

  private RequestBytes() {
  }

  /** The UTF-8 of {@code text}: ASCII copied byte for byte, anything else through the JDK's encoder. */
  static byte[] utf8(CharSequence text) {
    int n = text.length();
    byte[] out = new byte[n];
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (c >= 0x80) {
        return text.toString().getBytes(StandardCharsets.UTF_8);
      }
      out[i] = (byte) c;
    }
    return out;
  }

  /** A number's decimal digits, written as bytes with no string between. */
  static byte[] digits(long n) {
    if (n < 0) {
      return utf8(Long.toString(n));
    }
    int len = 1;
    for (long v = n; v >= 10; v /= 10) {
      len++;
    }
    byte[] out = new byte[len];
    for (int i = len - 1; i >= 0; i--, n /= 10) {
      out[i] = (byte) ('0' + n % 10);
    }
    return out;
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
