package dev.ratchet.verticles.impl.cluster;

import java.nio.charset.StandardCharsets;
import java.util.Collection;

/**
 * Where a session without a live owner goes: rendezvous (highest random weight) hashing of the
 * session id over the live members. Every member computes the same answer from the same
 * membership, and a member leaving moves only the sessions that were its own.
 */
public final class Placement {

  private Placement() {
  }

  /** The member with the highest weight for {@code sessionId}; null when there is none. */
  public static String owner(String sessionId, Collection<String> members) {
    String best = null;
    long bestWeight = 0;
    for (String member : members) {
      long w = weight(member, sessionId);
      if (best == null || Long.compareUnsigned(w, bestWeight) > 0
          || w == bestWeight && member.compareTo(best) < 0) {
        best = member;
        bestWeight = w;
      }
    }
    return best;
  }

  /** 64-bit FNV-1a of member and session, finished with a mixer so that near ids spread. */
  static long weight(String member, String sessionId) {
    long h = 0xcbf29ce484222325L;
    for (byte b : (member + '\u0000' + sessionId).getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return h;
  }
}
