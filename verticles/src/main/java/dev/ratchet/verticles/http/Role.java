package dev.ratchet.verticles.http;

import dev.ratchet.runtime.WireNames;

import java.util.EnumSet;
import java.util.Set;

/**
 * What a user or API token may do. People are {@code viewer} or {@code approver}; agents and
 * scripts use tokens with role {@code agent}. A viewer can never decide or reconcile.
 */
public enum Role {
  /** Reads sessions, approvals, the catalogue and metrics. */
  VIEWER(EnumSet.of(Permission.READ, Permission.READ_RESULTS, Permission.READ_CATALOG)),
  /** A viewer who may also approve, reject and reconcile. */
  APPROVER(EnumSet.of(Permission.READ, Permission.READ_RESULTS, Permission.READ_CATALOG, Permission.DECIDE,
      Permission.RECONCILE)),
  /** An agent or script: submits turns and reads their results and the catalogue. */
  AGENT(EnumSet.of(Permission.SUBMIT, Permission.READ_RESULTS, Permission.READ_CATALOG));

  /** One kind of action the HTTP API guards. */
  public enum Permission {
    READ, READ_RESULTS, READ_CATALOG, SUBMIT, DECIDE, RECONCILE
  }

  private final Set<Permission> permissions;

  Role(Set<Permission> permissions) {
    this.permissions = permissions;
  }

  public boolean may(Permission permission) {
    return permissions.contains(permission);
  }

  public String wireName() {
    return WireNames.of(this, '_');
  }

  public static Role fromWireName(String name) {
    return WireNames.parse(values(), name, Role::wireName,
        () -> "unknown role '" + name + "'; expected viewer, approver or agent");
  }
}
