package dev.ratchet.verticles.http.impl;

import dev.ratchet.verticles.http.Role;

/**
 * Who is making a request: a logged-in person or an API token. Decisions and reconciliations
 * record {@link #name()}, never a name taken from a request body.
 *
 * @param viaToken true for bearer-token requests, which carry no cookie and so need no CSRF token
 * @param callerId the resource id the sessions this principal creates belong to: the configured
 *     {@code resourceId} of the user or token, else its name. Never taken from a request body.
 * @param tenants whose sessions this principal may see; always includes {@code callerId}
 */
public record Principal(String name, Role role, boolean viaToken, String callerId, Tenants tenants) {

  static final String KEY = "ratchet.principal";

  public Principal(String name, Role role, boolean viaToken) {
    this(name, role, viaToken, name, Tenants.of(name, null));
  }

  public Principal(String name, Role role, boolean viaToken, String callerId) {
    this(name, role, viaToken, callerId, Tenants.of(callerId, null));
  }

  /**
   * Whether this viewer or approver was given neither tenants nor a resource id: it sees the
   * sessions of its own name alone, which no agent uses, so no agent's approval ever reaches it.
   */
  public boolean noTenants() {
    return (role == Role.VIEWER || role == Role.APPROVER) && !tenants.all() && callerId.equals(name)
        && tenants.callers().equals(java.util.List.of(name));
  }
}
