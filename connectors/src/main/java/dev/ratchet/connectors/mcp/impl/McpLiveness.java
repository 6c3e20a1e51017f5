package dev.ratchet.connectors.mcp.impl;

import io.modelcontextprotocol.client.McpAsyncClient;
import reactor.core.publisher.Mono;

import java.time.Duration;

/**
 * Notices a server that went away while a call waits for its answer. Over streamable HTTP a
 * broken answer stream leaves the SDK's request waiting for the whole request timeout; a ping every
 * {@code every}, each answered within {@code every}, tells much sooner.
 */
final class McpLiveness {

  private McpLiveness() {
  }

  /** Never emits; fails once a ping fails or goes unanswered. */
  static <T> Mono<T> failureOf(McpAsyncClient client, Duration every) {
    return Mono.delay(every).then(Mono.defer(() -> client.ping().timeout(every))).repeat().then(Mono.<T>never())
        .onErrorMap(err -> new ServerGoneException(err));
  }

  /** The server did not answer a ping while a call was in flight; the call may have reached it. */
  static final class ServerGoneException extends RuntimeException {
    ServerGoneException(Throwable cause) {
      super("the server stopped answering pings while the call was in flight", cause, false, false);
    }
  }
}
