package dev.ratchet.connectors.impl;

import dev.ratchet.connectors.Connection;
import dev.ratchet.connectors.ConnectionsException;
import dev.ratchet.runtime.Redaction;
import dev.ratchet.runtime.Secret;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads connections from {@code RATCHET_CONNECTION_<NAME>_<FIELD>} variables, where FIELD is
 * {@code CONNECTOR}, {@code EXPIRES_AT}, {@code CONFIG_<KEY>} or {@code CREDENTIAL_<KEY>}
 * ({@code CONFIG_BASE_URL} is the configuration key {@code baseUrl}). A connection exists when its
 * {@code CONNECTOR} variable is set.
 */
public final class EnvironmentConnections {

  public static final String PREFIX = "RATCHET_CONNECTION_";
  private static final String CONNECTOR_SUFFIX = "_CONNECTOR";

  private EnvironmentConnections() {
  }

  public static List<Connection> load(Map<String, String> env) {
    Map<String, String> vars = new TreeMap<>();
    env.forEach((k, v) -> {
      if (k.startsWith(PREFIX)) {
        vars.put(k, v);
      }
    });
    List<String> names = new ArrayList<>();
    vars.keySet().stream().filter(k -> k.endsWith(CONNECTOR_SUFFIX) && k.length() > PREFIX.length()
        + CONNECTOR_SUFFIX.length()).forEach(k -> names.add(k.substring(PREFIX.length(),
        k.length() - CONNECTOR_SUFFIX.length())));
    // longest first, so SUPPORT_SLACK_CONFIG_X is not read as field SLACK_CONFIG_X of SUPPORT
    names.sort(Comparator.comparingInt(String::length).reversed());
    Map<String, Map<String, String>> fieldsByName = new LinkedHashMap<>();
    for (String var : vars.keySet()) {
      String name = names.stream().filter(n -> var.startsWith(PREFIX + n + "_")).findFirst().orElseThrow(
          () -> new ConnectionsException("environment variable " + var + " belongs to no connection (set "
              + PREFIX + "<NAME>" + CONNECTOR_SUFFIX + " first)"));
      fieldsByName.computeIfAbsent(name, n -> new LinkedHashMap<>())
          .put(var.substring(PREFIX.length() + name.length() + 1), var);
    }
    List<Connection> result = new ArrayList<>();
    for (Map.Entry<String, Map<String, String>> e : fieldsByName.entrySet()) {
      result.add(connection(e.getKey(), e.getValue(), env));
    }
    return result;
  }

  private static Connection connection(String envName, Map<String, String> fields, Map<String, String> env) {
    if (!envName.matches("[A-Z][A-Z0-9_]*")) {
      throw new ConnectionsException("environment variable " + PREFIX + envName + CONNECTOR_SUFFIX
          + ": the connection name must be upper-case letters, digits and '_'");
    }
    String name = Names.connectionKey(envName);
    JsonObject config = new JsonObject();
    Map<String, Secret> credentials = new LinkedHashMap<>();
    String connector = null;
    String expiresVar = null;
    for (Map.Entry<String, String> f : fields.entrySet()) {
      String field = f.getKey();
      String var = f.getValue();
      if (field.equals("CONNECTOR")) {
        connector = env.get(var);
        if (connector == null || connector.isBlank()) {
          throw new ConnectionsException("environment variable " + var + " is empty");
        }
      } else if (field.equals("EXPIRES_AT")) {
        expiresVar = var;
        expiresAt(env, var);
      } else if (field.startsWith("CONFIG_") && field.length() > 7) {
        config.put(Names.camelCaseFromUpperSnake(field.substring(7)), env.get(var));
      } else if (field.startsWith("CREDENTIAL_") && field.length() > 11) {
        if (env.get(var) == null || env.get(var).isEmpty()) {
          throw new ConnectionsException("environment variable " + var + " is empty");
        }
        credentials.put(Names.camelCaseFromUpperSnake(field.substring(11)), Secret.from(() -> env.get(var)));
      } else {
        throw new ConnectionsException("environment variable " + var + ": unknown field '" + field
            + "' (expected CONNECTOR, EXPIRES_AT, CONFIG_<KEY> or CREDENTIAL_<KEY>)");
      }
    }
    // known to the redactor from the start, not only from their first use
    credentials.values().forEach(Redaction::remember);
    String expires = expiresVar;
    return Connection.create(name, connector, config, credentials,
        () -> expires == null ? Optional.empty() : expiresAt(env, expires),
        "environment variables " + PREFIX + envName + "_*");
  }

  private static Optional<Instant> expiresAt(Map<String, String> env, String var) {
    String value = env.get(var);
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(value));
    } catch (DateTimeParseException e) {
      throw new ConnectionsException("environment variable " + var
          + " must be an ISO-8601 instant such as 2027-01-31T00:00:00Z");
    }
  }
}
