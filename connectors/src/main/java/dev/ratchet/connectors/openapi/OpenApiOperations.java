package dev.ratchet.connectors.openapi;

import dev.ratchet.connectors.Connection;
import dev.ratchet.connectors.ConnectionsException;
import dev.ratchet.connectors.ConnectorOperation;
import dev.ratchet.connectors.OpenApiWarning;
import dev.ratchet.connectors.OperationDefinition;
import dev.ratchet.connectors.OperationOverride;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.json.JsonArray;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/** Binds the operations of an {@link OpenApiDocument} to a connection. */
public final class OpenApiOperations {

  /** The connection setting listing the hosts file parts may be downloaded from. */
  public static final String FILE_URL_HOSTS = "fileUrlHosts";

  private final Vertx vertx;
  private final HttpClient client;
  private final OpenApiDocument document;
  private final Connection connection;
  private final OpenApiAuth auth;
  private final String baseUrl;
  private final Duration connectionTimeout;
  /** The connection setting for every operation's timeout, in milliseconds. */
  public static final String TIMEOUT_MS = "timeoutMs";
  private final List<String> fileUrlHosts;

  public OpenApiOperations(Vertx vertx, HttpClient client, OpenApiDocument document, Connection connection) {
    this.vertx = vertx;
    this.client = client;
    this.document = document;
    this.connection = connection;
    this.auth = OpenApiAuth.of(connection);
    String base = connection.configString("baseUrl", document.serverUrl());
    if (base == null || !base.matches("https?://.+")) {
      throw new ConnectionsException("connection '" + connection.name() + "' (" + connection.origin()
          + "): field 'config.baseUrl' is needed because " + document.origin() + " names no absolute server URL");
    }
    this.baseUrl = base;
    int timeoutMs = connection.configInt(TIMEOUT_MS, 0, 1, 3_600_000);
    this.connectionTimeout = timeoutMs == 0 ? null : Duration.ofMillis(timeoutMs);
    this.fileUrlHosts = fileUrlHosts(connection);
  }

  public String baseUrl() {
    return baseUrl;
  }

  /**
   * The operation with this operationId. Fails naming the known ones when there is none, and
   * naming the unsupported constructs when the operation depends on any.
   */
  public ConnectorOperation operation(String operationId) {
    return operation(operationId, OperationOverride.NONE);
  }

  /**
   * The operation with this operationId, with the application's decisions over the document's.
   * Its timeout is the override's, else the document's {@code x-ratchet-agent.timeoutMs}, else the
   * connection's {@code config.timeoutMs}, else 30 s.
   */
  public ConnectorOperation operation(String operationId, OperationOverride override) {
    OpenApiOperationSpec spec = document.operations().get(operationId);
    if (spec == null) {
      throw new IllegalArgumentException("OpenAPI connector '" + document.manifest().connectorId()
          + "' has no operation '" + operationId + "' (known: " + String.join(", ", document.operations().keySet())
          + ")");
    }
    if (!spec.problems().isEmpty()) {
      throw new IllegalArgumentException("OpenAPI connector '" + document.manifest().connectorId() + "' operation '"
          + operationId + "' cannot be offered because it depends on what is not supported: "
          + spec.problems().stream().map(OpenApiWarning::toString).collect(Collectors.joining("; ")));
    }
    OperationDefinition definition = spec.definition();
    if (connectionTimeout != null && definition.timeout().equals(OperationDefinition.DEFAULT_TIMEOUT)) {
      definition = new OperationOverride(null, connectionTimeout).applyTo(definition);
    }
    definition = override.applyTo(definition);
    return new OpenApiHttpOperation(vertx, client, document.manifest(), spec.with(definition), connection, auth,
        baseUrl, fileUrlHosts);
  }

  /** The hosts ({@code host} or {@code host:port}) a file part given by URL may be downloaded from. */
  private static List<String> fileUrlHosts(Connection connection) {
    Object hosts = connection.config().getValue(FILE_URL_HOSTS);
    if (hosts == null) {
      return List.of();
    }
    if (!(hosts instanceof JsonArray list) || list.stream().anyMatch(h -> !(h instanceof String s) || s.isBlank())) {
      throw new ConnectionsException("connection '" + connection.name() + "' (" + connection.origin()
          + "): field 'config." + FILE_URL_HOSTS + "' must be a list of host names");
    }
    return list.stream().map(h -> ((String) h).toLowerCase(java.util.Locale.ROOT)).toList();
  }

  public List<String> operationIds() {
    return List.copyOf(document.operations().keySet());
  }
}
