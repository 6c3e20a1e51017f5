package dev.ratchet.runtime;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.Optional;

/**
 * A tool an agent can call. Its effect class comes from its own definition and decides the
 * journaled step, retries and ordering. Implementations must not block the calling thread.
 */
public interface Tool {

  String name();

  String description();

  /** JSON Schema of the arguments; every call is validated against it before anything runs. */
  JsonObject inputSchema();

  EffectClass effectClass();

  /** A human-readable name the source gives the tool (MCP's {@code title}), shown in the catalogue; null when none. */
  default String title() {
    return null;
  }

  /**
   * Whether the tool may reach beyond a closed set of things (MCP's {@code openWorldHint}: the web, anyone's
   * inbox), shown in the catalogue and usable by an approval policy; null when its source does not say.
   */
  default Boolean openWorld() {
    return null;
  }

  default ApprovalRule approvalRule() {
    return ApprovalRule.never();
  }

  default Duration timeout() {
    return Duration.ofSeconds(30);
  }

  default RetryPolicy retryPolicy() {
    return RetryPolicy.DEFAULT;
  }

  /** Where the tool comes from, shown in the catalogue (for example {@code function}, {@code connector:slack}). */
  default String source() {
    return "function";
  }

  /**
   * Runs one attempt. Fail the future with {@link ToolNotSentException} when the request provably
   * never left; any other failure is treated as "may have reached the provider".
   */
  Future<ToolResult> invoke(ToolInvocation invocation);

  /**
   * Whether {@link #invoke} calls {@link ToolInvocation#sending()} once its connection is in hand,
   * and writes its request only after that succeeds. A write that does is journaled as started
   * there (J2) rather than before {@code invoke}, so a request still waiting for a connection when
   * the runtime stops is known not to have been sent, and an attempt that ends before it is not sent.
   */
  default boolean announcesSending() {
    return false;
  }

  /** Whether {@link #lookup(ToolInvocation)} can find an earlier effect of a call at the provider. */
  default boolean supportsLookup() {
    return false;
  }

  /** Finds an earlier effect of this call at the provider: its result, or empty when there was none. */
  default Future<Optional<ToolResult>> lookup(ToolInvocation invocation) {
    return Future.failedFuture(new UnsupportedOperationException(name() + " has no lookup"));
  }

  /**
   * Why no attempt of this call could run (credentials or a connection that are missing or
   * disabled), asked before a person is asked to approve it (rule 4 of docs/ARCHITECTURE.md): a
   * reason ends the call {@code failed}, "did not run", without asking anyone. Null when it could
   * run or the tool cannot tell, which is the default; a failed future counts as null. The
   * invocation is that of no attempt ({@code attempt} 0): nothing may be sent with it.
   */
  default Future<String> cannotRun(ToolInvocation invocation) {
    return Future.succeededFuture(null);
  }
}
