package dev.ratchet.connectors.mcp;

import dev.ratchet.connectors.testing.NpmPackage;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The official MCP reference server {@code @modelcontextprotocol/server-everything}, installed from
 * the npm registry once per machine ({@link NpmPackage}). Its {@code get-env} tool answers with the
 * server's whole environment, which is what a test of child environments and redaction needs.
 */
public final class EverythingMcpServer {

  public static final String PACKAGE = "@modelcontextprotocol/server-everything";
  public static final String VERSION = "2026.8.31";

  private static Path entry;

  private EverythingMcpServer() {
  }

  /** The server's {@code dist/index.js}, installing it first when needed. */
  public static synchronized Path entryPoint() throws IOException, InterruptedException {
    if (entry == null) {
      entry = NpmPackage.file("ratchet-mcp-everything-" + VERSION, PACKAGE, VERSION, "dist/index.js");
    }
    return entry;
  }

  /** A stdio server configuration that runs the reference server with node. */
  public static McpServerConfig.Builder stdio(String name) throws IOException, InterruptedException {
    return McpServerConfig.stdio(name, "node", entryPoint().toString(), "stdio");
  }
}
