package dev.ratchet.verticles.crash;

import dev.ratchet.connectors.ConnectorToolSource;
import dev.ratchet.connectors.Connections;
import dev.ratchet.connectors.SlackConnector;
import dev.ratchet.connectors.mcp.McpServerConfig;
import dev.ratchet.connectors.mcp.McpToolSource;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ToolPolicy;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.Map;

import static dev.ratchet.connectors.ConnectorTool.connectorTool;
import static dev.ratchet.runtime.testing.Await.await;

/**
 * A runtime in its own JVM whose agents take their tools from connectors, for crash tests: the
 * same stdin/stdout protocol as {@link CrashNode}, with the agent named in each command.
 * Arguments: redis url, key prefix, then either {@code slack <connections file>} or
 * {@code mcp <streamable HTTP url>}.
 * <ul>
 *   <li>{@code slack}: agent {@code slack} offers {@code slack_post_thread_reply} of the connection
 *   {@code support-slack}; agent {@code slack-approval} offers the same tool asking for approval.</li>
 *   <li>{@code mcp}: agent {@code mcp} offers the tools of the MCP server {@code notes}; its
 *   unannotated {@code hold_message} and {@code send_message} stay non_idempotent_writes but run
 *   without approval.</li>
 * </ul>
 */
public final class ConnectorCrashNode {

  public static final String SLACK_CONNECTION = "support-slack";

  public static void main(String[] args) throws Exception {
    String redisUrl = args[0];
    String prefix = args[1];
    String kind = args[2];
    String target = args[3];
    Vertx vertx = Vertx.vertx();
    NodeProtocol.printCompletedTurnsAndFencing(vertx);
    RatchetNode ratchet = await(RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl(redisUrl).keyPrefix(prefix)
        .nodeId("connector-crash-node-" + ProcessHandle.current().pid())));
    switch (kind) {
      case "slack": {
        Connections connections = Connections.load(Map.of(Connections.FILE_VARIABLE, target));
        SlackConnector slack = SlackConnector.connect(vertx, connections.connection(SLACK_CONNECTION));
        await(ratchet.register(AgentDefinition.builder("slack")
            .toolSource(ConnectorToolSource.of(connectorTool(slack.postThreadReply()))).build()));
        await(ratchet.register(AgentDefinition.builder("slack-approval")
            .toolSource(ConnectorToolSource.of(connectorTool(slack.postThreadReply()).requireApproval(true)))
            .build()));
        break;
      }
      case "mcp": {
        McpToolSource mcp = McpToolSource.create(vertx, McpServerConfig.http("notes", target)
            .requestTimeout(Duration.ofSeconds(60)).build());
        await(ratchet.register(AgentDefinition.builder("mcp").toolSource(mcp)
            .policy(ToolPolicy.requireApproval("hold_message", false))
            .policy(ToolPolicy.requireApproval("send_message", false)).build()));
        break;
      }
      default:
        throw new IllegalArgumentException("unknown kind " + kind);
    }
    NodeProtocol.print(new JsonObject().put("event", "ready"));

    NodeProtocol.serve(ratchet, cmd -> cmd.getString("agent"));
  }
}
