package dev.ratchet.server;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;

import java.util.List;
import java.util.Map;

/** A stdio MCP server with one read tool, {@code now}, for tests that start {@code ratchet run} with an MCP source. */
public final class ClockMcpServer {

  private ClockMcpServer() {
  }

  public static void main(String[] args) throws Exception {
    McpSchema.Tool now = McpSchema.Tool.builder().name("now").description("The server's clock")
        .inputSchema(Map.of("type", "object", "properties", Map.of()))
        .annotations(McpSchema.ToolAnnotations.builder().readOnlyHint(true).build()).build();
    McpSyncServer server = McpServer.sync(new StdioServerTransportProvider(McpJsonDefaults.getMapper()))
        .serverInfo("clock", "1.0")
        .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
        .tools(List.of(McpServerFeatures.SyncToolSpecification.builder().tool(now)
            .callHandler((exchange, req) -> McpSchema.CallToolResult.builder()
                .content(List.of(new McpSchema.TextContent(String.valueOf(System.currentTimeMillis())))).build())
            .build()))
        .build();
    Thread.currentThread().join();
    server.close();
  }
}
