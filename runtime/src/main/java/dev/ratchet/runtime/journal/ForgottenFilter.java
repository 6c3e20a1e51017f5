package dev.ratchet.runtime.journal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The shape of the Redis filter of session ids retention forgot: a Bloom filter of 1 MiB with four
 * bit positions per id, in two generations of {@link #PER_GENERATION} ids each, so that its memory
 * is fixed (two strings of 1 MiB at most) and its false positives stay rare: at most about 1 in 3,000 new session ids is
 * taken for a forgotten one when both generations are full.
 */
final class ForgottenFilter {

  /** Bits in one generation: 1 MiB. */
  static final long BITS = 8L * 1024 * 1024;
  /** Ids one generation takes before the next starts. */
  static final int PER_GENERATION = 250_000;
  private static final int POSITIONS = 4;

  private ForgottenFilter() {
  }

  /** The id's bit positions: four 32-bit words of its SHA-1, each modulo {@link #BITS}. */
  static long[] positions(String sessionId) {
    byte[] h;
    try {
      h = MessageDigest.getInstance("SHA-1").digest(sessionId.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    long[] positions = new long[POSITIONS];
    for (int i = 0; i < POSITIONS; i++) {
      long word = ((h[i * 4] & 0xffL) << 24) | ((h[i * 4 + 1] & 0xffL) << 16) | ((h[i * 4 + 2] & 0xffL) << 8)
          | (h[i * 4 + 3] & 0xffL);
      positions[i] = word % BITS;
    }
    return positions;
  }
}
