package dev.ratchet.runtime;

import java.util.Objects;

/**
 * Where a runtime reports the spans of the turns it runs (docs/OBSERVABILITY.md). The one installed
 * for the process is {@link #current()}: {@link #OFF} unless an application, such as
 * {@code ratchet run} with OpenTelemetry configured, installs another before its sessions start.
 */
public interface TurnTracer {

  /** Traces nothing: every span is {@link TraceSpan#OFF}. */
  TurnTracer OFF = (sessionId, turnId, traceparent) -> TraceSpan.OFF;

  /**
   * The span of one turn of a session, started now, in the trace that {@code traceparent} (W3C,
   * journaled with the turn) names, or in a new trace when it is null or malformed.
   */
  TraceSpan turn(String sessionId, String turnId, String traceparent);

  /** The span of a model call of the agent loop, started now; as {@link #turn} for its parent. */
  default TraceSpan modelCall(String sessionId, String model, String traceparent) {
    return TraceSpan.OFF;
  }

  /** The tracer installed for this process. */
  static TurnTracer current() {
    return Installed.tracer;
  }

  /** Installs {@code tracer} for every session started from now on. */
  static void install(TurnTracer tracer) {
    Installed.tracer = Objects.requireNonNull(tracer, "tracer");
  }

  /** The process's tracer, behind the interface so that it stays out of the public API. */
  final class Installed {
    private static volatile TurnTracer tracer = OFF;

    private Installed() {
    }
  }
}
