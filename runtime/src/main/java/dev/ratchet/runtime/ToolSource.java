package dev.ratchet.runtime;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.List;

/** Something that offers tools to an agent: Java functions, a connector, an MCP server, a catalog. */
public interface ToolSource {

  /** Short name shown in the tool catalogue. */
  String name();

  /** The tools this source offers now. Called when an agent is registered and when its catalogue refreshes. */
  Future<List<Tool>> tools(Vertx vertx);

  /**
   * Asks to be told when the tools this source offers change (an MCP server's
   * {@code notifications/tools/list_changed}); the runtime then lists them again and makes the
   * result the agent's catalogue for new turns. Sources whose tools never change ignore it.
   */
  default void toolsChangedHandler(Runnable listener) {
  }

  /** Whether the source reaches what is behind it; shown in the tool catalogue. */
  default Future<SourceHealth> sourceHealth() {
    return Future.succeededFuture(SourceHealth.local(name()));
  }
}
