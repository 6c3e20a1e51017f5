package dev.ratchet.connectors;

import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.Future;

import java.util.Optional;

/**
 * One operation of a connector bound to a connection, ready to run. {@link #execute} ends in a
 * named branch ({@link ToolResult#branch()}); the outcome recorded for that branch comes from the
 * manifest, which {@link ConnectorTool} applies. Offer it to agents with
 * {@link ConnectorTool#connectorTool(ConnectorOperation)}.
 */
public interface ConnectorOperation {

  ConnectorManifest manifest();

  OperationDefinition definition();

  /** The connection it runs against, for example {@code support-slack}. */
  String connectionName();

  /**
   * Runs one attempt. Fails with {@link dev.ratchet.runtime.ToolNotSentException} when nothing
   * was sent; never blocks the calling thread.
   */
  Future<ToolResult> execute(ToolInvocation invocation);

  /**
   * Whether {@link #execute} calls {@link ToolInvocation#sending()} once its connection is in hand
   * and writes only after it succeeds; see {@link dev.ratchet.runtime.Tool#announcesSending()}.
   */
  default boolean announcesSending() {
    return false;
  }

  /** Whether {@link #lookup} can find an earlier effect of the same call id at the provider. */
  default boolean supportsLookup() {
    return false;
  }

  /** The result of an earlier effect of this invocation's call id, or empty when the provider shows none. */
  default Future<Optional<ToolResult>> lookup(ToolInvocation invocation) {
    return Future.failedFuture(new UnsupportedOperationException(manifest().connectorId() + " operation '"
        + definition().name() + "' has no lookup"));
  }
}
