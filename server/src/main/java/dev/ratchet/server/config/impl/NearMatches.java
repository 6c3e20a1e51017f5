package dev.ratchet.server.config.impl;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** The few known names closest to a name that is not known, by edit distance (case ignored). */
final class NearMatches {

  private static final int MAX = 3;

  private NearMatches() {
  }

  /** At most three names within a third of the name's length of edits (at least two), closest first. */
  static List<String> of(String name, List<String> known) {
    String wanted = name.toLowerCase(Locale.ROOT);
    int limit = Math.max(2, wanted.length() / 3);
    record Scored(String name, int distance) {
    }
    return known.stream().map(k -> new Scored(k, distance(wanted, k.toLowerCase(Locale.ROOT), limit)))
        .filter(s -> s.distance() <= limit)
        .sorted(Comparator.comparingInt(Scored::distance).thenComparing(Scored::name))
        .limit(MAX).map(Scored::name).toList();
  }

  /** " (did you mean a, b?)", or "" when nothing is close. */
  static String hint(String name, List<String> known) {
    List<String> near = of(name, known);
    return near.isEmpty() ? "" : " (did you mean " + String.join(", ", near) + "?)";
  }

  /** Levenshtein distance, giving up (answering {@code limit + 1}) once it must exceed {@code limit}. */
  private static int distance(String a, String b, int limit) {
    if (Math.abs(a.length() - b.length()) > limit) {
      return limit + 1;
    }
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      int best = current[0];
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
        best = Math.min(best, current[j]);
      }
      if (best > limit) {
        return limit + 1;
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
