package dev.ratchet.connectors.impl;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * Tool names model APIs accept: 1-64 of {@code [a-zA-Z0-9_-]} (OpenAI function calling and
 * Anthropic tools both). A connector's tool is {@code <connector>_<operation in snake case>}; when
 * that is too long it is cut and ends with {@code _} and eight hex digits of a digest of the
 * connector and the operation as written, so the same operation always gets the same name and two
 * operations that share a long prefix still differ.
 */
public final class ToolNames {

  /** The rule of both model APIs for a tool's name. */
  public static final Pattern VALID = Pattern.compile("[a-zA-Z0-9_-]{1,64}");
  private static final int MAX = 64;
  private static final int DIGEST_CHARS = 8;

  private ToolNames() {
  }

  public static String toolName(String connectorId, String operation) {
    String natural = connectorId + "_" + Names.snakeCase(operation);
    if (natural.length() <= MAX && !natural.endsWith("_")) {
      return natural;
    }
    String stem = natural.substring(0, Math.min(natural.length(), MAX - DIGEST_CHARS - 1)).replaceAll("_+$", "");
    return stem + "_" + digest(connectorId + "\u0000" + operation);
  }

  /** Whether {@code name} is a valid tool name for the model APIs. */
  public static boolean valid(String name) {
    return name != null && VALID.matcher(name).matches();
  }

  private static String digest(String text) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash).substring(0, DIGEST_CHARS);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }
}
