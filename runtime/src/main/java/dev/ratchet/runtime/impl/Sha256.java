package dev.ratchet.runtime.impl;

import java.nio.charset.StandardCharsets;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * SHA-256 as lowercase hex, for call ids, idempotency keys and argument hashes: every call of a
 * turn takes two or three, so the digest, its input buffer and its output are kept per thread and
 * only the returned string is allocated.
 */
public final class Sha256 {

  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
  private static final int MAX_KEPT_BUFFER = 16 * 1024;

  /** A thread's digest and buffers: looking a digest up in the security providers costs more than hashing. */
  private static final class State {
    final MessageDigest md;
    final byte[] digest = new byte[32];
    byte[] input = new byte[256];

    State() {
      try {
        md = MessageDigest.getInstance("SHA-256");
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  private static final ThreadLocal<State> STATE = ThreadLocal.withInitial(State::new);

  private Sha256() {
  }

  /** The 64 hex digits of the hash of {@code text}'s UTF-8. */
  public static String hex(String text) {
    return prefixedHex("", 64, text);
  }

  /** {@link #hex(String)} of text still in a builder, hashed without a string made of it. */
  public static String hex(CharSequence text) {
    State s = STATE.get();
    s.md.reset();
    update(s, text);
    return hexOf(s, "", 64);
  }

  /**
   * {@code prefix} (ASCII) followed by the first {@code hexDigits} hex digits of the hash of the
   * UTF-8 of {@code parts} joined by U+0000: the same as hashing the joined string.
   */
  public static String prefixedHex(String prefix, int hexDigits, String... parts) {
    State s = STATE.get();
    MessageDigest md = s.md;
    md.reset();
    for (int p = 0; p < parts.length; p++) {
      if (p > 0) {
        md.update((byte) 0);
      }
      update(s, parts[p]);
    }
    return hexOf(s, prefix, hexDigits);
  }

  private static String hexOf(State s, String prefix, int hexDigits) {
    try {
      s.md.digest(s.digest, 0, s.digest.length);
    } catch (DigestException e) {
      throw new IllegalStateException(e);
    }
    int offset = prefix.length();
    byte[] out = new byte[offset + hexDigits];
    for (int i = 0; i < offset; i++) {
      out[i] = (byte) prefix.charAt(i);
    }
    for (int i = 0; i < hexDigits; i++) {
      int b = s.digest[i >> 1];
      out[offset + i] = HEX[(i & 1) == 0 ? (b >> 4) & 0xf : b & 0xf];
    }
    return new String(out, StandardCharsets.ISO_8859_1);
  }

  private static void update(State s, CharSequence text) {
    int n = text.length();
    if (n > s.input.length) {
      if (n > MAX_KEPT_BUFFER) {
        s.md.update(text.toString().getBytes(StandardCharsets.UTF_8));
        return;
      }
      s.input = new byte[Math.max(n, s.input.length * 2)];
    }
    byte[] in = s.input;
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (c >= 0x80) {
        // not ASCII: the JDK's encoder handles surrogates and the rest exactly as getBytes always did
        s.md.update(text.toString().getBytes(StandardCharsets.UTF_8));
        return;
      }
      in[i] = (byte) c;
    }
    s.md.update(in, 0, n);
  }
}
