package dev.ratchet.runtime;

import dev.ratchet.runtime.impl.Sha256;

import java.util.List;

/**
 * The one alphabet of the ids a client chooses: session, turn, agent and message ids, and a
 * model's own call ids. 1-128 characters of {@code A-Z a-z 0-9 _ . : @ + -}: what model providers
 * ({@code call_...}, {@code toolu_...}), UUIDs and the agent loop ({@code agent-step-3}) use, and
 * nothing that a URL path, a Redis key, a log line or a terminal could read as more than text:
 * no control characters or escapes, no spaces, no slashes, nothing outside ASCII.
 */
public final class Ids {

  public static final int MAX_LENGTH = 128;
  /** The alphabet as the documentation and the errors spell it. */
  public static final String ALPHABET = "A-Z a-z 0-9 _ . : @ + -";

  private Ids() {
  }

  public static boolean valid(String id) {
    if (id == null || id.isEmpty() || id.length() > MAX_LENGTH) {
      return false;
    }
    for (int i = 0; i < id.length(); i++) {
      if (!allowed(id.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Null when {@code id} is valid, else an {@code INVALID_ID} error naming the field. The error
   * never repeats the id: it may hold the very characters it is refused for.
   */
  public static RatchetException problem(String field, String id) {
    if (id == null || id.isEmpty()) {
      return new RatchetException(ErrorCode.INVALID_ID, "'" + field + "' is required: 1-" + MAX_LENGTH + " characters of "
          + ALPHABET);
    }
    if (id.length() > MAX_LENGTH) {
      return new RatchetException(ErrorCode.INVALID_ID, "'" + field + "' is " + id.length() + " characters long; at most "
          + MAX_LENGTH + " characters of " + ALPHABET + " are allowed");
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (!allowed(c)) {
        return new RatchetException(ErrorCode.INVALID_ID, "'" + field + "' has the character " + String.format("U+%04X", (int) c)
            + " at position " + (i + 1) + "; ids are 1-" + MAX_LENGTH + " characters of " + ALPHABET);
      }
    }
    return null;
  }

  /**
   * The turn id of a model response without an id of its own: {@code calls:sha256:} and the first
   * 32 hex digits of the SHA-256 of its tool-call ids joined with {@code \n}, as every Ratchet
   * client names it (docs/ADAPTERS.md, "Turn ids").
   */
  public static String turnOfCalls(List<String> toolCallIds) {
    return Sha256.prefixedHex("calls:sha256:", 32, String.join("\n", toolCallIds));
  }

  /** {@code id} itself when it is valid, else {@code sha256:} and the first 32 hex digits of the SHA-256 of its UTF-8. */
  public static String sanitized(String id) {
    return valid(id) ? id : Sha256.prefixedHex("sha256:", 32, id);
  }

  private static boolean allowed(char c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
        || c == '_' || c == '.' || c == ':' || c == '@' || c == '+' || c == '-';
  }
}
