package dev.ratchet.connectors.provider;

/**
 * Starts an authorization flow for the identity in {@code identity}.
 *
 * @param toolkit the toolkit to connect (Composio)
 * @param tool a tool needing authorization (Arcade authorizes per tool)
 * @param callbackUrl where the provider sends the user afterwards, or null
 */
public record AuthorizeOptions(String toolkit, String tool, String callbackUrl, ResolveOptions identity) {

  public static AuthorizeOptions toolkit(String toolkit, ResolveOptions identity) {
    return new AuthorizeOptions(toolkit, null, null, identity);
  }

  public static AuthorizeOptions tool(String tool, ResolveOptions identity) {
    return new AuthorizeOptions(null, tool, null, identity);
  }
}
