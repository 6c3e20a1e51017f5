package dev.ratchet.verticles.http.impl;

import dev.ratchet.verticles.http.Role;

/**
 * Who is making a request: a logged-in person or an API token. Decisions and reconciliations
 * record {@link #name()}, never a name taken from a request body.
 *
 * @param viaToken true for bearer-token requests, which carry no cookie and so need no CSRF token
 */
public record Principal(String name, Role role, boolean viaToken) {

  static final String KEY = "ratchet.principal";
}
