package dev.ratchet.server.config.impl;

import dev.ratchet.connectors.Connection;
import dev.ratchet.connectors.Connections;
import dev.ratchet.runtime.Secret;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ${secret:NAME}} in an agent file: the only credential of the connection NAME, or
 * {@code ${secret:NAME.CREDENTIAL}} a named one, from the connections file or
 * {@code RATCHET_CONNECTION_*} variables. The value is read at each use and never kept in text.
 */
public final class SecretReferences {

  private static final Pattern REFERENCE = Pattern.compile("\\$\\{secret:([^}]*)}");

  private SecretReferences() {
  }

  public static boolean hasReference(String value) {
    return REFERENCE.matcher(value).find();
  }

  /** What is wrong with the references of a value, or an empty list. */
  public static List<String> problems(String value, Connections connections) {
    List<String> problems = new ArrayList<>();
    Matcher m = REFERENCE.matcher(value);
    while (m.find()) {
      String problem = resolve(m.group(1), connections).problem;
      if (problem != null) {
        problems.add(problem);
      }
    }
    return problems;
  }

  /** The value with each reference replaced at every use; check {@link #problems} first. */
  public static Secret secret(String value, Connections connections) {
    return Secret.from(() -> {
      Matcher m = REFERENCE.matcher(value);
      StringBuilder sb = new StringBuilder();
      while (m.find()) {
        Target t = resolve(m.group(1), connections);
        m.appendReplacement(sb, Matcher.quoteReplacement(t.connection.revealCredential(t.credential)));
      }
      m.appendTail(sb);
      return sb.toString();
    });
  }

  private record Target(Connection connection, String credential, String problem) {
  }

  private static Target resolve(String name, Connections connections) {
    Optional<Connection> whole = connections.find(name);
    if (whole.isPresent()) {
      Connection c = whole.get();
      if (c.credentialNames().size() == 1) {
        return new Target(c, c.credentialNames().iterator().next(), null);
      }
      return new Target(null, null, "secret '" + name + "': connection '" + c.name() + "' has "
          + c.credentialNames().size() + " credentials; name one as ${secret:" + name + ".<credential>} (credentials: "
          + String.join(", ", c.credentialNames().stream().sorted().toList()) + ")");
    }
    int dot = name.lastIndexOf('.');
    if (dot > 0) {
      Optional<Connection> owner = connections.find(name.substring(0, dot));
      String credential = name.substring(dot + 1);
      if (owner.isPresent()) {
        return owner.get().hasCredential(credential) ? new Target(owner.get(), credential, null)
            : new Target(null, null, "secret '" + name + "': connection '" + owner.get().name()
                + "' has no credential '" + credential + "'");
      }
    }
    return new Target(null, null, "secret '" + name + "' is not configured: no connection named '"
        + (dot > 0 ? name.substring(0, dot) + "' or '" + name : name) + "' in the connections file or"
        + " RATCHET_CONNECTION_* variables (configured: "
        + (connections.isEmpty() ? "none" : String.join(", ", connections.names())) + ")");
  }
}
