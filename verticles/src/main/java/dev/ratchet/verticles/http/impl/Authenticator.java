package dev.ratchet.verticles.http.impl;

import dev.ratchet.verticles.http.HttpOptions;
import dev.ratchet.verticles.http.PasswordHash;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;

/** Checks passwords and API tokens against the hashes in the configuration. */
public final class Authenticator {

  private final List<HttpOptions.User> users;
  private final List<HttpOptions.Token> tokens;
  private final String unknownName;

  public Authenticator(HttpOptions options) {
    this.users = options.users();
    this.tokens = options.tokens();
    this.unknownName = unknownNameHash(users);
  }

  /**
   * What an unknown name's password is checked against: a hash as costly as the costliest user's
   * (the default cost when there is none), so that timing does not tell which names exist. No
   * password derives to all zeros, so it never matches, and it costs nothing to build.
   */
  static String unknownNameHash(List<HttpOptions.User> users) {
    int iterations = users.stream().mapToInt(u -> PasswordHash.iterations(u.passwordHash())).max()
        .orElse(PasswordHash.DEFAULT_ITERATIONS);
    return "pbkdf2-sha256$" + Math.max(1, iterations) + "$" + "A".repeat(22) + "==$" + "A".repeat(43) + "=";
  }

  /** Blocking (PBKDF2): call from a worker. Null when the name or password is wrong. */
  public Principal login(String name, String password) {
    if (name == null || password == null) {
      return null;
    }
    HttpOptions.User match = null;
    for (HttpOptions.User u : users) {
      if (u.name().equals(name)) {
        match = u;
      }
    }
    String hash = match == null ? unknownName : match.passwordHash();
    boolean ok = PasswordHash.verifyPassword(password.toCharArray(), hash);
    return ok && match != null ? new Principal(match.name(), match.role(), false,
        match.callerId(), Tenants.of(match.callerId(), match.tenants())) : null;
  }

  /** The token's principal, or null. Compares hashes in constant time. */
  public Principal token(String bearer) {
    if (bearer == null || bearer.isEmpty()) {
      return null;
    }
    byte[] hash = PasswordHash.hashToken(bearer).getBytes(StandardCharsets.US_ASCII);
    Principal found = null;
    for (HttpOptions.Token t : tokens) {
      if (MessageDigest.isEqual(hash, t.tokenHash().getBytes(StandardCharsets.US_ASCII))) {
        found = new Principal(t.name(), t.role(), true, t.callerId(), Tenants.of(t.callerId(), t.tenants()));
      }
    }
    return found;
  }
}
