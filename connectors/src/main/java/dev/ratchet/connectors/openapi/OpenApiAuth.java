package dev.ratchet.connectors.openapi;

import dev.ratchet.connectors.Connection;
import dev.ratchet.connectors.ConnectionsException;
import io.vertx.core.MultiMap;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * How requests authenticate, from the connection's {@code config.auth}: {@code none},
 * {@code bearer} (credential {@code token}), {@code apiKeyHeader} / {@code apiKeyQuery}
 * ({@code config.apiKeyName}, credential {@code apiKey}) or {@code basic} (credentials
 * {@code username}, {@code password}).
 */
record OpenApiAuth(String kind, String apiKeyName) {

  static OpenApiAuth of(Connection connection) {
    String kind = connection.configString("auth", "none");
    String where = "connection '" + connection.name() + "' (" + connection.origin() + ")";
    List<String> needed = switch (kind) {
      case "none" -> List.of();
      case "bearer" -> List.of("token");
      case "apiKeyHeader", "apiKeyQuery" -> List.of("apiKey");
      case "basic" -> List.of("username", "password");
      default -> throw new ConnectionsException(where + ": field 'config.auth' must be one of none, bearer,"
          + " apiKeyHeader, apiKeyQuery, basic");
    };
    for (String credential : needed) {
      if (!connection.hasCredential(credential)) {
        throw new ConnectionsException(where + ": auth '" + kind + "' needs credential '" + credential + "'");
      }
    }
    String name = connection.configString("apiKeyName", null);
    if (kind.startsWith("apiKey") && (name == null || name.isBlank())) {
      throw new ConnectionsException(where + ": auth '" + kind + "' needs field 'config.apiKeyName'");
    }
    return new OpenApiAuth(kind, name);
  }

  /** The credentials to reveal for one request, in the order {@link #apply} expects them. */
  List<String> credentialNames() {
    return switch (kind) {
      case "bearer" -> List.of("token");
      case "apiKeyHeader", "apiKeyQuery" -> List.of("apiKey");
      case "basic" -> List.of("username", "password");
      default -> List.of();
    };
  }

  /** Adds the credentials to {@code headers}, or as percent-encoded pairs to {@code query}. */
  void apply(MultiMap headers, List<String> query, List<String> values) {
    switch (kind) {
      case "bearer" -> headers.set("Authorization", "Bearer " + values.get(0));
      case "apiKeyHeader" -> headers.set(apiKeyName, values.get(0));
      case "apiKeyQuery" -> query.add(UriEncoding.encode(apiKeyName) + "=" + UriEncoding.encode(values.get(0)));
      case "basic" -> headers.set("Authorization", "Basic " + Base64.getEncoder().encodeToString(
          (values.get(0) + ":" + values.get(1)).getBytes(StandardCharsets.UTF_8)));
      default -> {
      }
    }
  }

  @Override
  public String toString() {
    return kind.toLowerCase(Locale.ROOT);
  }
}
