package dev.ratchet.connectors.mcp.impl;

import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.function.Function;

/** A read tool built on an MCP feature other than tools: listing or reading resources, getting a prompt. */
final class McpReadTool implements Tool {

  private final String name;
  private final String description;
  private final JsonObject schema;
  private final String source;
  private final Function<ToolInvocation, Future<ToolResult>> run;

  McpReadTool(String name, String description, JsonObject schema, String source,
              Function<ToolInvocation, Future<ToolResult>> run) {
    this.name = name;
    this.description = description;
    this.schema = schema;
    this.source = source;
    this.run = run;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String description() {
    return description;
  }

  @Override
  public JsonObject inputSchema() {
    return schema;
  }

  @Override
  public EffectClass effectClass() {
    return EffectClass.READ;
  }

  @Override
  public String source() {
    return source;
  }

  @Override
  public Future<ToolResult> invoke(ToolInvocation invocation) {
    return run.apply(invocation);
  }
}
