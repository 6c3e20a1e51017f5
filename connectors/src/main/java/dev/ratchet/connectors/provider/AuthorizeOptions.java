package dev.ratchet.connectors.provider;

import java.util.Map;

/**
 * Starts an authorization flow for the identity in {@code identity}.
 *
 * @param toolkit the toolkit to connect (Composio)
 * @param tool a tool needing authorization (Arcade authorizes per tool)
 * @param callbackUrl where the provider sends the user afterwards, or null
 * @param fields the connection-field values the toolkit asks for
 *     ({@link ToolProvider#listConnectionFields}), by field name; empty when none are given. They may
 *     be secrets: a provider sends them to its service only, and never names a value in an error.
 */
public record AuthorizeOptions(String toolkit, String tool, String callbackUrl, ResolveOptions identity,
                               Map<String, String> fields) {

  public AuthorizeOptions {
    fields = fields == null ? Map.of() : Map.copyOf(fields);
  }

  public AuthorizeOptions(String toolkit, String tool, String callbackUrl, ResolveOptions identity) {
    this(toolkit, tool, callbackUrl, identity, Map.of());
  }

  public static AuthorizeOptions toolkit(String toolkit, ResolveOptions identity) {
    return new AuthorizeOptions(toolkit, null, null, identity);
  }

  public static AuthorizeOptions tool(String tool, ResolveOptions identity) {
    return new AuthorizeOptions(null, tool, null, identity);
  }

  /** These options with the connection-field values {@code fields} (name to value). */
  public AuthorizeOptions withFields(Map<String, String> fields) {
    return new AuthorizeOptions(toolkit, tool, callbackUrl, identity, fields);
  }

  /** The field names only: the values may be secrets. */
  @Override
  public String toString() {
    return "AuthorizeOptions[toolkit=" + toolkit + ", tool=" + tool + ", callbackUrl=" + callbackUrl + ", identity="
        + identity + ", fields=" + fields.keySet() + "]";
  }
}
