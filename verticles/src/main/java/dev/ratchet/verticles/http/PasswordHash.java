package dev.ratchet.verticles.http;

import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Password and token hashes for the {@code http} configuration, so that the configuration never
 * holds a secret. Passwords: PBKDF2-HMAC-SHA256 with a random salt, stored as
 * {@code pbkdf2-sha256$<iterations>$<salt base64>$<hash base64>}. API tokens: the hex SHA-256 of
 * the token (tokens are long random strings, so a slow hash adds nothing).
 * <p>Command line: {@code java -cp ratchet.jar dev.ratchet.verticles.http.PasswordHash hash-password}
 * reads a password from the console and prints its hash; {@code new-token} prints a fresh token and
 * the hash to put in the configuration.
 */
public final class PasswordHash {

  public static final int DEFAULT_ITERATIONS = 310_000;
  private static final String PREFIX = "pbkdf2-sha256";
  private static final SecureRandom RANDOM = new SecureRandom();

  private PasswordHash() {
  }

  /** Hashes a password with a fresh 16-byte salt. */
  public static String hashPassword(char[] password) {
    return hashPassword(password, DEFAULT_ITERATIONS);
  }

  public static String hashPassword(char[] password, int iterations) {
    byte[] salt = new byte[16];
    RANDOM.nextBytes(salt);
    byte[] hash = pbkdf2(password, salt, iterations);
    Base64.Encoder b64 = Base64.getEncoder().withoutPadding();
    return PREFIX + "$" + iterations + "$" + b64.encodeToString(salt) + "$" + b64.encodeToString(hash);
  }

  /** Whether the password matches the stored hash; compares in constant time. False for malformed hashes. */
  public static boolean verifyPassword(char[] password, String stored) {
    if (stored == null) {
      return false;
    }
    String[] parts = stored.split("\\$");
    if (parts.length != 4 || !PREFIX.equals(parts[0])) {
      return false;
    }
    try {
      int iterations = Integer.parseInt(parts[1]);
      byte[] salt = Base64.getDecoder().decode(parts[2]);
      byte[] expected = Base64.getDecoder().decode(parts[3]);
      if (iterations < 1 || expected.length == 0) {
        return false;
      }
      return MessageDigest.isEqual(expected, pbkdf2(password, salt, iterations));
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** The iterations a stored password hash costs to check; 0 for a malformed hash. */
  public static int iterations(String stored) {
    String[] parts = stored == null ? new String[0] : stored.split("\\$");
    if (parts.length != 4 || !PREFIX.equals(parts[0])) {
      return 0;
    }
    try {
      return Math.max(0, Integer.parseInt(parts[1]));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** The hex SHA-256 of an API token: what {@code tokens[].tokenHash} holds. */
  public static String hashToken(String token) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
          .digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A fresh random API token (32 bytes, base64url). */
  public static String newToken() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return "rt_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private static byte[] pbkdf2(char[] password, byte[] salt, int iterations) {
    PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, 256);
    try {
      return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("PBKDF2WithHmacSHA256 is not available", e);
    } finally {
      spec.clearPassword();
    }
  }

  private static final String USAGE = "usage: java -cp ratchet.jar dev.ratchet.verticles.http.PasswordHash"
      + " hash-password [password] | new-token";

  /** {@code hash-password [password]} or {@code new-token}; prints what goes into the configuration. */
  public static void main(String[] args) {
    if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help")) {
      System.err.println(USAGE);
      System.exit(args.length == 0 ? 2 : 0);
    }
    String command = args[0];
    if ("new-token".equals(command)) {
      String token = newToken();
      System.out.println("token (give this to the agent; it is not stored): " + token);
      System.out.println("tokenHash (put this in http.tokens): " + hashToken(token));
      return;
    }
    if (!"hash-password".equals(command)) {
      System.err.println("PasswordHash: unknown command '" + command + "'");
      System.err.println(USAGE);
      System.exit(2);
    }
    char[] password;
    if (args.length > 1) {
      password = args[1].toCharArray();
    } else if (System.console() != null) {
      password = System.console().readPassword("password: ");
    } else {
      java.util.Scanner in = new java.util.Scanner(System.in, StandardCharsets.UTF_8);
      password = in.hasNextLine() ? in.nextLine().toCharArray() : null;
    }
    if (password == null || password.length == 0) {
      System.err.println("PasswordHash: no password given: pass it after hash-password or on standard input");
      System.err.println(USAGE);
      System.exit(2);
    }
    System.out.println(hashPassword(password));
  }
}
