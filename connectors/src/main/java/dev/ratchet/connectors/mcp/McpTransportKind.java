package dev.ratchet.connectors.mcp;

/** How Ratchet reaches an MCP server: a child process over stdio, or streamable HTTP. */
public enum McpTransportKind {
  STDIO,
  STREAMABLE_HTTP
}
