package dev.ratchet.connectors;

import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolSource;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Offers the connector operations the application names, and nothing else. Naming an operation
 * the manifest does not expose to agents fails here, when the agent is defined.
 * <pre>{@code
 * SlackConnector slack = SlackConnector.connect(vertx, connections.connection("support-slack"));
 * ToolSource tools = ConnectorToolSource.of(connectorTool(slack.postThreadReply()).requireApproval(true));
 * }</pre>
 */
public final class ConnectorToolSource implements ToolSource {

  private final String name;
  private final List<Tool> tools;

  private ConnectorToolSource(String name, List<Tool> tools) {
    this.name = name;
    this.tools = List.copyOf(tools);
  }

  public static ConnectorToolSource of(ConnectorTool... tools) {
    return of(List.of(tools));
  }

  public static ConnectorToolSource of(List<ConnectorTool> connectorTools) {
    Map<String, Tool> byName = new LinkedHashMap<>();
    for (ConnectorTool t : connectorTools) {
      Tool tool = t.toTool();
      if (byName.putIfAbsent(tool.name(), tool) != null) {
        throw new IllegalArgumentException("tool '" + tool.name() + "' is named twice");
      }
    }
    return new ConnectorToolSource("connectors", new ArrayList<>(byName.values()));
  }

  /** The same tools under another catalogue name. */
  public ConnectorToolSource named(String name) {
    return new ConnectorToolSource(name, tools);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Future<List<Tool>> tools(Vertx vertx) {
    return Future.succeededFuture(new ArrayList<>(tools));
  }
}
