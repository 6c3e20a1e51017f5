package dev.ratchet.connectors;

import dev.ratchet.connectors.openapi.OpenApiDocument;
import dev.ratchet.connectors.openapi.OpenApiOperations;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Any OpenAPI 3.x document (JSON or YAML) plus a connection, as a connector. Each operation the
 * application names by operationId becomes an operation whose input schema joins its parameters
 * and its request body (argument {@code body}, sent in the media type the document gives; see
 * docs/CONNECTORS.md). Constructs the connector does not support are listed in
 * {@link #warnings()}; an operation that depends on one cannot be named.
 * <pre>{@code
 * OpenApiConnector orders = OpenApiConnector.load(vertx, Path.of("orders.yaml"), connections.connection("orders-api"));
 * ConnectorToolSource.of(connectorTool(orders.operation("createRefund")).requireApproval(true));
 * }</pre>
 * Loading reads the document and belongs to start-up, not to an event loop.
 */
public final class OpenApiConnector implements AutoCloseable {

  private final OpenApiDocument document;
  private final OpenApiOperations operations;
  /** The connection setting for how many connections to the API may be open at once. */
  public static final String MAX_CONNECTIONS = "maxConnections";
  public static final int DEFAULT_MAX_CONNECTIONS = 20;

  private final HttpClient client;

  private OpenApiConnector(Vertx vertx, OpenApiDocument document, Connection connection) {
    this.document = document;
    // writes queue for a connection here, not in the journal: see OpenApiHttpOperation
    int pool = connection.configInt(MAX_CONNECTIONS, DEFAULT_MAX_CONNECTIONS, 1, 10_000);
    this.client = vertx.createHttpClient(new HttpClientOptions(),
        new PoolOptions().setHttp1MaxSize(pool).setHttp2MaxSize(pool));
    try {
      this.operations = new OpenApiOperations(vertx, client, document, connection);
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
  }

  /**
   * Loads a document for a connection. The connector id (the tool-name prefix) is the connection's
   * {@code config.connectorId}, or else its name with '-' turned into '_'.
   */
  public static OpenApiConnector load(Vertx vertx, Path document, Connection connection) {
    String id = connection.configString("connectorId", connection.name().replace('-', '_').toLowerCase(Locale.ROOT));
    return load(vertx, id, document, connection);
  }

  /** Loads a document from a file; references to files next to it ({@code ./schemas/pet.yaml#/Pet}) are read too. */
  public static OpenApiConnector load(Vertx vertx, String connectorId, Path document, Connection connection) {
    checkConnectorId(connectorId);
    return new OpenApiConnector(vertx, OpenApiDocument.load(connectorId, document), connection);
  }

  /** Reads a document given as text; {@code origin} names it in messages. */
  public static OpenApiConnector parse(Vertx vertx, String connectorId, String documentText, String origin,
                                       Connection connection) {
    checkConnectorId(connectorId);
    return new OpenApiConnector(vertx, OpenApiDocument.parse(connectorId, documentText, origin), connection);
  }

  private static void checkConnectorId(String connectorId) {
    if (!connectorId.matches("[a-z][a-z0-9_]{0,31}")) {
      throw new IllegalArgumentException("connector id '" + connectorId
          + "' must be 1-32 lower-case letters, digits and '_', starting with a letter");
    }
  }

  /** The manifest derived from the document: one operation per operationId. */
  public ConnectorManifest manifest() {
    return document.manifest();
  }

  public List<OpenApiWarning> warnings() {
    return document.warnings();
  }

  public List<String> operationIds() {
    return operations.operationIds();
  }

  public String baseUrl() {
    return operations.baseUrl();
  }

  /** The operation with this operationId; see {@link OpenApiOperations#operation(String)}. */
  public ConnectorOperation operation(String operationId) {
    return operations.operation(operationId);
  }

  /** The operation with the application's decisions over the document's; see {@link OpenApiOperations}. */
  public ConnectorOperation operation(String operationId, OperationOverride override) {
    return operations.operation(operationId, override);
  }

  /** The document the operations come from: their tags, and why an operation cannot be offered. */
  public OpenApiDocument document() {
    return document;
  }

  @Override
  public void close() {
    client.close();
  }

  @Override
  public String toString() {
    return "OpenApiConnector[" + document.manifest().connectorId() + ", " + document.origin() + "]";
  }
}
