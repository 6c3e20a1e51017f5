package dev.ratchet.connectors.mcp;

/**
 * Whether an MCP server is reachable now, for the tool catalogue. {@code lastError} is already
 * redacted: configured secrets never appear in it.
 *
 * @param server the configured server name
 * @param healthy true while connected and initialised
 * @param lastError the most recent connection or transport error, or null
 * @param since epoch milliseconds when the status last changed
 * @param reconnectAttempts failed reconnect attempts since the last healthy moment
 */
public record McpHealth(String server, boolean healthy, String lastError, long since, int reconnectAttempts) {

  public String status() {
    return healthy ? "healthy" : "unhealthy";
  }
}
