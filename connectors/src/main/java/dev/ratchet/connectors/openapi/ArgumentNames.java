package dev.ratchet.connectors.openapi;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Set;

/**
 * The property names of a tool's input. Model APIs accept property keys of 1 to 64 letters,
 * digits, {@code _}, {@code .} and {@code -} (Anthropic and OpenAI, and Bedrock, refuse a whole
 * request otherwise), so a parameter named {@code include[]}, {@code filter[status]},
 * {@code $filter} or longer than 64 characters gets a safe name ({@code include},
 * {@code filter.status}, {@code filter}, a 55-character prefix plus a hash) and is sent under its
 * own name. A name already taken (a path and a query parameter both called {@code id}, two names
 * that read the same once made safe, or {@code body} when the operation has a body) gets its
 * location as a suffix ({@code id_query}), then a number. Parameters are named in a fixed order
 * (names that need no change first, then the others; each group path, query, header, cookie, in
 * document order), so the names never change between loads.
 */
final class ArgumentNames {

  static final String VALID = "[a-zA-Z0-9_.-]{1,64}";
  private static final int MAX = 64;

  private ArgumentNames() {
  }

  /** A name for the parameter {@code wire} in {@code in} that is not in {@code taken}; adds it there. */
  static String assign(String wire, String in, Set<String> taken) {
    String base = safe(wire);
    String name = base;
    if (taken.contains(name)) {
      name = fit(base, "_" + in);
    }
    for (int n = 2; taken.contains(name); n++) {
      name = fit(base, "_" + in + "_" + n);
    }
    taken.add(name);
    return name;
  }

  static String safe(String wire) {
    if (wire.matches(VALID)) {
      return wire;
    }
    String s = wire.replace("[]", "").replace('[', '.').replace("]", "").replaceAll("[^a-zA-Z0-9_.-]+", "_")
        .replaceAll("^[_.]+|[_.]+$", "");
    if (s.isEmpty()) {
      s = "param";
    }
    return s.length() <= MAX ? s : s.substring(0, MAX - 9) + "_" + hash(wire);
  }

  private static String fit(String base, String suffix) {
    return base.length() + suffix.length() <= MAX ? base + suffix
        : base.substring(0, MAX - suffix.length()) + suffix;
  }

  private static String hash(String text) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 4);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
