package dev.ratchet.connectors.mcp.impl;

import dev.ratchet.connectors.impl.DescribedTool;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.function.Function;

/** A read tool built on an MCP feature other than tools: listing or reading resources, getting a prompt. */
final class McpReadTool extends DescribedTool {

  private final Function<ToolInvocation, Future<ToolResult>> run;

  McpReadTool(String name, String description, JsonObject schema, String source,
              Function<ToolInvocation, Future<ToolResult>> run) {
    super(name, description, schema, EffectClass.READ, null, null, source);
    this.run = run;
  }






  @Override
  public Future<ToolResult> invoke(ToolInvocation invocation) {
    return run.apply(invocation);
  }
}
