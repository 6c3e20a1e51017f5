package dev.ratchet.connectors.mcp.impl;

import java.util.Locale;
import java.util.Set;

/**
 * Whether a variable or header name says its value is a credential. A safety net under the
 * {@code String} overloads of {@code McpServerConfig.Builder}: a token passed as a plain string is
 * still scrubbed, while {@code MODE=production} stays readable.
 */
public final class CredentialNames {

  private static final Set<String> PARTS = Set.of("TOKEN", "TOKENS", "SECRET", "SECRETS", "PASSWORD", "PASSWD",
      "PASSPHRASE", "KEY", "APIKEY", "AUTH", "AUTHORIZATION", "CREDENTIAL", "CREDENTIALS", "COOKIE", "PAT");

  private CredentialNames() {
  }

  public static boolean looksSecret(String name) {
    if (name == null) {
      return false;
    }
    // split at separators and at camel-case humps: GITHUB_TOKEN, X-Api-Key, apiKey
    String spaced = name.replaceAll("([a-z0-9])([A-Z])", "$1 $2").toUpperCase(Locale.ROOT);
    for (String part : spaced.split("[^A-Z0-9]+")) {
      if (PARTS.contains(part)) {
        return true;
      }
    }
    return false;
  }
}
