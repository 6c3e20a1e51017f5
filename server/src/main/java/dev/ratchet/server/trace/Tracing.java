package dev.ratchet.server.trace;

import dev.ratchet.runtime.TurnTracer;
import dev.ratchet.server.trace.impl.OtelTurnTracer;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;

import java.util.Map;

/**
 * Tracing of {@code ratchet run}: on when the environment names a traces exporter or an OTLP
 * endpoint, configured by the standard {@code OTEL_*} variables, off otherwise
 * (docs/OBSERVABILITY.md).
 */
public final class Tracing {

  private Tracing() {
  }

  /** Whether {@code env} turns tracing on: the rule docs/OBSERVABILITY.md states. */
  public static boolean wanted(Map<String, String> env) {
    if ("true".equalsIgnoreCase(env.get("OTEL_SDK_DISABLED"))) {
      return false;
    }
    String exporter = env.get("OTEL_TRACES_EXPORTER");
    if (exporter != null && !exporter.isBlank()) {
      return !"none".equalsIgnoreCase(exporter.trim());
    }
    return notBlank(env.get("OTEL_EXPORTER_OTLP_ENDPOINT")) || notBlank(env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"));
  }

  /**
   * Installs an OpenTelemetry tracer for the runtime when {@code env} asks for one; a line for the
   * start-up banner saying where traces go, or null when tracing is off.
   */
  public static String installFrom(Map<String, String> env) {
    if (!wanted(env)) {
      return null;
    }
    // only traces: metrics and logs stay off unless the user's own variables turn them on
    AutoConfiguredOpenTelemetrySdk sdk = AutoConfiguredOpenTelemetrySdk.builder()
        .addPropertiesSupplier(() -> Map.of("otel.service.name", "ratchet", "otel.metrics.exporter", "none",
            "otel.logs.exporter", "none"))
        .build();
    TurnTracer.install(new OtelTurnTracer(sdk.getOpenTelemetrySdk()));
    String endpoint = env.getOrDefault("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", env.get("OTEL_EXPORTER_OTLP_ENDPOINT"));
    return "Traces: OpenTelemetry, exporter " + env.getOrDefault("OTEL_TRACES_EXPORTER", "otlp")
        + (endpoint == null ? "" : " to " + endpoint);
  }

  private static boolean notBlank(String s) {
    return s != null && !s.isBlank();
  }
}
