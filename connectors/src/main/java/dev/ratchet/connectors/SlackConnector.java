package dev.ratchet.connectors;

import dev.ratchet.connectors.slack.SlackApi;
import dev.ratchet.connectors.slack.SlackOperations;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;

import java.util.Map;
import java.util.function.Supplier;

/**
 * The Slack connector: Slack Web API operations against one connection. The connection needs
 * the credential {@code botToken}; {@code config.baseUrl} defaults to {@code https://slack.com/api}.
 * <pre>{@code
 * SlackConnector slack = SlackConnector.connect(vertx, connections.connection("support-slack"));
 * ConnectorToolSource.of(connectorTool(slack.postThreadReply()));
 * }</pre>
 */
public final class SlackConnector implements AutoCloseable {

  public static final String ID = "slack";

  private static final ConnectorManifest MANIFEST = ConnectorManifest.loadResource(SlackOperations.MANIFEST_RESOURCE);

  private final Connection connection;
  private final WebClient client;
  private final SlackOperations operations;

  private SlackConnector(Vertx vertx, Connection connection) {
    this.connection = connection;
    this.client = WebClient.create(vertx, new WebClientOptions().setUserAgent("ratchet-connector-slack")
        .setFollowRedirects(false));
    this.operations = new SlackOperations(MANIFEST, new SlackApi(vertx, client, connection), connection);
  }

  /** Binds the Slack operations to a connection; fails when it is not a Slack connection or has no {@code botToken}. */
  public static SlackConnector connect(Vertx vertx, Connection connection) {
    if (!ID.equals(connection.connectorId())) {
      throw new ConnectionsException("connection '" + connection.name() + "' is for connector '"
          + connection.connectorId() + "', not '" + ID + "'");
    }
    if (!connection.hasCredential("botToken")) {
      throw new ConnectionsException("connection '" + connection.name() + "' (" + connection.origin()
          + ") has no credential 'botToken'");
    }
    return new SlackConnector(vertx, connection);
  }

  public static ConnectorManifest manifest() {
    return MANIFEST;
  }

  public Connection connection() {
    return connection;
  }

  public ConnectorOperation postChannelMessage() {
    return operations.postChannelMessage();
  }

  /** A single-attempt write with a lookup that finds an earlier reply of the same call. */
  public ConnectorOperation postThreadReply() {
    return operations.postThreadReply();
  }

  public ConnectorOperation addReaction() {
    return operations.addReaction();
  }

  public ConnectorOperation listThreadMessages() {
    return operations.listThreadMessages();
  }

  public ConnectorOperation getThreadReply() {
    return operations.getThreadReply();
  }

  /** An operation by its manifest name; an unknown name fails listing the known ones. */
  public ConnectorOperation operation(String name) {
    Map<String, Supplier<ConnectorOperation>> ops = Map.of(
        "postChannelMessage", this::postChannelMessage,
        "postThreadReply", this::postThreadReply,
        "addReaction", this::addReaction,
        "listThreadMessages", this::listThreadMessages,
        "getThreadReply", this::getThreadReply);
    MANIFEST.operation(name);
    return ops.get(name).get();
  }

  @Override
  public void close() {
    client.close();
  }

  @Override
  public String toString() {
    return "SlackConnector[" + connection.name() + "]";
  }
}
