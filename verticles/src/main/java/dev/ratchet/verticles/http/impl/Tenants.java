package dev.ratchet.verticles.http.impl;

import dev.ratchet.verticles.http.HttpOptions;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Whose sessions a principal may see: its own caller id's, those of the callers it was given
 * ({@code tenants} in the configuration), or every session ({@code "*"}, an operator). A session
 * created without a caller (through the trusted Java or event-bus API) is seen by operators only.
 */
public final class Tenants {

  private static final Tenants ALL = new Tenants(true, Set.of());

  private final boolean all;
  private final Set<String> callers;

  private Tenants(boolean all, Set<String> callers) {
    this.all = all;
    this.callers = callers;
  }

  /** The principal's own caller id plus the configured {@code tenants} (null: none more). */
  public static Tenants of(String ownCallerId, List<String> configured) {
    if (configured != null && configured.contains(HttpOptions.ALL_TENANTS)) {
      return ALL;
    }
    Set<String> callers = new LinkedHashSet<>();
    callers.add(ownCallerId);
    if (configured != null) {
      callers.addAll(configured);
    }
    return new Tenants(false, Set.copyOf(callers));
  }

  /** Reads what {@link #encode()} wrote (the login session keeps it as a string). */
  static Tenants decode(String ownCallerId, String encoded) {
    if (encoded == null || encoded.isEmpty()) {
      return of(ownCallerId, null);
    }
    return of(ownCallerId, List.of(encoded.split(",")));
  }

  /** Caller ids never contain a comma, so a comma-separated list is unambiguous. */
  String encode() {
    return all ? HttpOptions.ALL_TENANTS : String.join(",", callers);
  }

  /** True for an operator ({@code "*"}): sees every session, and the figures that cover them all. */
  public boolean all() {
    return all;
  }

  /** The caller ids seen, sorted; empty for an operator, who sees every caller. */
  public java.util.List<String> callers() {
    return callers.stream().sorted().toList();
  }

  /** Whether a session of this caller (null: a session created without one) is visible. */
  public boolean sees(String sessionCaller) {
    return all || sessionCaller != null && callers.contains(sessionCaller);
  }

  @Override
  public String toString() {
    return encode();
  }
}
