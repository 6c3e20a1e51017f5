package dev.ratchet.connectors.mcp.impl;

import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Redaction;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolNotSentException;
import dev.ratchet.runtime.ToolResult;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.spec.McpError;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import reactor.core.publisher.Mono;

import reactor.util.context.Context;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Runs one request against the live session and maps its outcome, shared by server tools and the
 * resource and prompt tools. The SDK's async client answers on Reactor threads; results come back
 * on the caller's Vert.x context. {@code inFlightCheck}: how often a server is pinged while a call
 * waits for its answer; null for never.
 */
record McpCall(Vertx vertx, McpConnection connection, String server, Duration inFlightCheck) {

  private static final Duration CANCEL_SEND_TIMEOUT = Duration.ofSeconds(1);
  private static final long SEND_SETTLE_MILLIS = 1_000;

  /** {@code method}: the MCP method the request calls ({@code tools/call}, {@code resources/read}...). */
  <T> Future<ToolResult> run(ToolInvocation invocation, EffectClass effect, String method,
                             Function<McpAsyncClient, Mono<T>> request, Function<T, ToolResult> onAnswer) {
    McpAsyncClient client = connection.client();
    if (client == null) {
      connection.nudge();
      String last = connection.health().lastError();
      // another attempt before the reconnect would fail the same way: it waits for the reconnect
      return McpOutcomes.notSent(server, "is not connected, reconnecting" + (last == null ? "" : " (" + last + ")"),
          connection.untilReconnect());
    }
    return attempt(client, invocation, effect, method, request, onAnswer, true);
  }

  private <T> Future<ToolResult> attempt(McpAsyncClient client, ToolInvocation invocation, EffectClass effect,
                                         String method, Function<McpAsyncClient, Mono<T>> request,
                                         Function<T, ToolResult> onAnswer, boolean mayResend) {
    Mono<T> mono;
    try {
      mono = request.apply(client);
    } catch (ToolNotSentException e) {
      return McpOutcomes.notSent(server, "could not be called: " + Redaction.scrub(e.getMessage()));
    }
    long remaining = invocation == null ? 0 : invocation.remainingMillis();
    if (remaining > 0) {
      mono = mono.timeout(Duration.ofMillis(remaining));
    }
    if (inFlightCheck != null) {
      mono = Mono.firstWithSignal(mono, McpLiveness.failureOf(client, inFlightCheck));
    }
    ObservedTransport transport = connection.transport();
    ObservedTransport.Trace trace = new ObservedTransport.Trace(method);
    mono = mono.contextWrite(Context.of(ObservedTransport.TRACE, trace, McpTransportContext.KEY,
        McpClients.transportContext(invocation)));
    return Future.fromCompletionStage(mono.toFuture(), vertx.getOrCreateContext()).transform(ar -> {
      if (ar.succeeded()) {
        return Future.succeededFuture(onAnswer.apply(ar.result()));
      }
      Throwable cause = ar.cause();
      McpError mcpError = McpOutcomes.mcpError(cause);
      if (mcpError != null) {
        return Future.succeededFuture(McpOutcomes.fromMcpError(mcpError, effect));
      }
      String why = connection.describe(cause);
      if (McpOutcomes.credentialsRefused(cause)) {
        // the same credentials would be refused again: no attempt of this call is worth repeating
        connection.lost(client, why);
        return Future.failedFuture(ToolNotSentException.notRetryable(CallResult.NOT_RUN_PREFIX + ": MCP server '"
            + server + "' refused the credentials: " + why));
      }
      // a ping failing to connect says nothing about the call, which may have reached the server before it went
      if (!McpOutcomes.serverGone(cause) && McpOutcomes.neverSent(cause)) {
        connection.lost(client, why);
        return McpOutcomes.notSent(server, "could not be reached: " + why, connection.untilReconnect());
      }
      return refusedForItsSession(trace).compose(refused -> {
        if (refused) {
          // the server answered 404 (or 400) to this very request: it has no such session, so it processed nothing;
          // the SDK opens a new session, on which the request may go once more
          if (mayResend && (invocation == null || invocation.remainingMillis() > 0)) {
            return attempt(client, invocation, effect, method, request, onAnswer, false);
          }
          return McpOutcomes.notSent(server, "no longer knew the session: " + why);
        }
        if (McpOutcomes.serverGone(cause) || McpOutcomes.sessionTerminated(cause)) {
          connection.lost(client, why);
        }
        McpCallException failure = new McpCallException("MCP server '" + server + "' did not answer: " + why);
        return cancel(transport, trace.id, why).transform(v -> Future.failedFuture(failure));
      });
    });
  }

  /** Whether sending the request itself ended in the server's "no such session"; waits briefly for sending to end. */
  private Future<Boolean> refusedForItsSession(ObservedTransport.Trace trace) {
    if (trace.id == null) {
      return Future.succeededFuture(false);
    }
    CompletableFuture<Boolean> refused = trace.sent.thenApply(McpOutcomes::sessionNotFound)
        .completeOnTimeout(false, SEND_SETTLE_MILLIS, TimeUnit.MILLISECONDS);
    return Future.fromCompletionStage(refused, vertx.getOrCreateContext());
  }

  /**
   * Tells the server to stop working on a request given up on, before the failure is reported: a
   * retry, or an {@code outcome_unknown}, then never overlaps a first attempt the server still runs
   * because nobody told it. Sending is bounded; a server that cannot be told is reported all the same.
   */
  private Future<Void> cancel(ObservedTransport transport, Object requestId, String why) {
    if (transport == null || requestId == null) {
      return Future.succeededFuture();
    }
    Mono<Void> sent;
    try {
      sent = transport.cancel(requestId, "the client gave up on the request: " + why).timeout(CANCEL_SEND_TIMEOUT);
    } catch (RuntimeException e) {
      return Future.succeededFuture();
    }
    return Future.<Void>fromCompletionStage(sent.toFuture(), vertx.getOrCreateContext()).otherwiseEmpty();
  }

  /** A request that may have reached the server; its message is already redacted. */
  static final class McpCallException extends RuntimeException {
    McpCallException(String message) {
      super(message, null, false, false);
    }
  }
}
