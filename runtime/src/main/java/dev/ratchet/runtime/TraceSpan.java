package dev.ratchet.runtime;

/**
 * One span of a turn's trace as the runtime reports it to a {@link TurnTracer}: a turn, a tool call,
 * an approval wait or a model call. Every method of {@link #OFF} does nothing, so that a runtime
 * without tracing spends no more than a call on each (docs/OBSERVABILITY.md).
 */
public interface TraceSpan {

  /** The span of a runtime without tracing: records nothing, has no trace. */
  TraceSpan OFF = new TraceSpan() {
  };

  /** A span under this one, started now; {@code name} follows the conventions of docs/OBSERVABILITY.md. */
  default TraceSpan child(String name) {
    return OFF;
  }

  default TraceSpan attribute(String key, String value) {
    return this;
  }

  default TraceSpan attribute(String key, long value) {
    return this;
  }

  /** Something that happened within the span, such as a failed attempt, with attributes as key, value pairs. */
  default void event(String name, Object... keyValues) {
  }

  /** Marks the span failed, with {@code errorType} as its {@code error.type}. */
  default void failed(String errorType, String message) {
  }

  /** Ends the span; a span ended once stays as it was. */
  default void end() {
  }

  /** The W3C {@code traceparent} of this span, to send to a provider; null when nothing is traced. */
  default String traceparent() {
    return null;
  }

  /** The trace id (32 hexadecimal digits), for log lines; null when nothing is traced. */
  default String traceId() {
    return null;
  }
}
