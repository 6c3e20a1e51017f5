package dev.ratchet.connectors.openapi;

import dev.ratchet.connectors.Connection;
import dev.ratchet.connectors.ConnectionsException;
import dev.ratchet.connectors.ConnectorOperation;
import dev.ratchet.connectors.OpenApiWarning;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.json.JsonArray;

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
    return new OpenApiHttpOperation(vertx, client, document.manifest(), spec, connection, auth, baseUrl, fileUrlHosts);
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
