package dev.ratchet.verticles.http.impl;

import dev.ratchet.verticles.http.HttpOptions;
import dev.ratchet.verticles.http.PasswordHash;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;

/** Checks passwords and API tokens against the hashes in the configuration. */
public final class Authenticator {

  // a real hash to check against when the user name is unknown, so timing does not reveal names
  private static final String DUMMY = PasswordHash.hashPassword("not-a-password".toCharArray(), 310_000);

  private final List<HttpOptions.User> users;
  private final List<HttpOptions.Token> tokens;

  public Authenticator(HttpOptions options) {
    this.users = options.users();
    this.tokens = options.tokens();
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
    boolean ok = PasswordHash.verifyPassword(password.toCharArray(), match == null ? DUMMY : match.passwordHash());
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
