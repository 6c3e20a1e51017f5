package dev.ratchet.connectors.mcp;

import dev.ratchet.connectors.mcp.impl.McpToolSourceImpl;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolSource;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Offers the tools of one MCP server (stdio or streamable HTTP) as agent tools, with effect
 * classes and approval taken from the tools' annotations unless the application pinned them.
 * <p>
 * A server that goes away makes its tools fail with
 * {@link dev.ratchet.runtime.ToolNotSentException} while the request provably never left, and the
 * source reconnects with exponential backoff. {@link #health()} reports the current state for the
 * tool catalogue. Nothing here blocks an event-loop thread.
 * <pre>{@code
 * McpToolSource source = McpToolSource.create(vertx, McpServerConfig.http("docs", "http://localhost:8080/mcp")
 *     .header("Authorization", Secret.from(() -> "Bearer " + System.getenv("DOCS_TOKEN")))
 *     .offerResources(true)
 *     .build());
 * List<Tool> tools = source.tools(vertx).await();
 * }</pre>
 */
public interface McpToolSource extends ToolSource {

  static McpToolSource create(Vertx vertx, McpServerConfig config) {
    return new McpToolSourceImpl(vertx, config);
  }

  McpServerConfig config();

  /** Connects and initialises the MCP session; on failure keeps retrying in the background. */
  Future<Void> connect();

  /**
   * Tools the server has that are not offered, with the reason (for example a tool the server runs
   * only as a task), as of the last listing. The catalogue shows them with the source's health.
   */
  Map<String, String> withheldTools();

  /**
   * Called with the server's tools, listed again, each time the server says they changed
   * ({@code notifications/tools/list_changed}); {@link #tools} answers the new list from then on.
   * The agents that use this source follow it through {@link #toolsChangedHandler}: their catalogue
   * is resolved again, for new turns only.
   */
  void onToolsChanged(Consumer<List<Tool>> listener);

  /** The last known state, without contacting the server. */
  McpHealth health();

  /** Pings the server (reconnecting first if needed) and returns the resulting state. */
  Future<McpHealth> checkHealth();

  /** Stops reconnecting and closes the session (and the child process of a stdio server). */
  Future<Void> close();
}
