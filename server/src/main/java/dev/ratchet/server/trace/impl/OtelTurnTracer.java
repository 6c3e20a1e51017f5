package dev.ratchet.server.trace.impl;

import dev.ratchet.runtime.TraceSpan;
import dev.ratchet.runtime.TurnTracer;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;

import java.util.List;

/** The runtime's spans as OpenTelemetry spans of the instrumentation scope {@code dev.ratchet}. */
public final class OtelTurnTracer implements TurnTracer {

  private static final TextMapGetter<String> TRACEPARENT = new TextMapGetter<>() {
    @Override
    public Iterable<String> keys(String carrier) {
      return List.of("traceparent");
    }

    @Override
    public String get(String carrier, String key) {
      return "traceparent".equals(key) ? carrier : null;
    }
  };

  private final Tracer tracer;

  public OtelTurnTracer(OpenTelemetry openTelemetry) {
    this.tracer = openTelemetry.getTracer("dev.ratchet");
  }

  @Override
  public TraceSpan turn(String sessionId, String turnId, String traceparent) {
    SpanBuilder b = tracer.spanBuilder("ratchet.turn").setSpanKind(SpanKind.INTERNAL);
    return new OtelSpan(tracer, parent(b, traceparent).startSpan());
  }

  @Override
  public TraceSpan modelCall(String sessionId, String model, String traceparent) {
    SpanBuilder b = tracer.spanBuilder("chat " + model).setSpanKind(SpanKind.CLIENT);
    return new OtelSpan(tracer, parent(b, traceparent).startSpan())
        .attribute("gen_ai.operation.name", "chat")
        .attribute("gen_ai.request.model", model)
        .attribute("gen_ai.conversation.id", sessionId);
  }

  /** A malformed {@code traceparent} is ignored, as W3C Trace Context asks: the span starts a trace. */
  private static SpanBuilder parent(SpanBuilder b, String traceparent) {
    if (traceparent == null) {
      return b.setNoParent();
    }
    Context parent = W3CTraceContextPropagator.getInstance().extract(Context.root(), traceparent, TRACEPARENT);
    return b.setParent(parent);
  }
}
