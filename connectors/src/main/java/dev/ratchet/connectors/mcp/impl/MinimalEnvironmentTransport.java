package dev.ratchet.connectors.mcp.impl;

import dev.ratchet.runtime.impl.ChildEnvironment;
import io.modelcontextprotocol.client.transport.ServerParameters;

/**
 * The stdio transport, but the server process starts from a minimal environment: the SDK
 * adds the configured variables to a {@link ProcessBuilder} that, left alone, carries this whole
 * JVM's environment, so one server could read every other server's and connection's credentials.
 */
final class MinimalEnvironmentTransport extends WatchedStdioTransport {

  MinimalEnvironmentTransport(ServerParameters params) {
    super(params);
  }

  @Override
  protected ProcessBuilder getProcessBuilder() {
    return ChildEnvironment.minimal(new ProcessBuilder());
  }
}
