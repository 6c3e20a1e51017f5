package dev.ratchet.server.trace.impl;

import dev.ratchet.runtime.TraceSpan;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;

/** A {@link TraceSpan} as an OpenTelemetry span; children are internal spans under it. */
final class OtelSpan implements TraceSpan {

  private final Tracer tracer;
  private final Span span;
  private boolean ended;

  OtelSpan(Tracer tracer, Span span) {
    this.tracer = tracer;
    this.span = span;
  }

  @Override
  public TraceSpan child(String name) {
    return new OtelSpan(tracer, tracer.spanBuilder(name).setParent(Context.root().with(span))
        .setSpanKind(SpanKind.INTERNAL).startSpan());
  }

  @Override
  public TraceSpan attribute(String key, String value) {
    if (value != null) {
      span.setAttribute(key, value);
    }
    return this;
  }

  @Override
  public TraceSpan attribute(String key, long value) {
    span.setAttribute(key, value);
    return this;
  }

  @Override
  public void event(String name, Object... keyValues) {
    AttributesBuilder b = Attributes.builder();
    for (int i = 0; i + 1 < keyValues.length; i += 2) {
      String key = String.valueOf(keyValues[i]);
      Object v = keyValues[i + 1];
      if (v instanceof Number n) {
        b.put(key, n.longValue());
      } else if (v != null) {
        b.put(key, v.toString());
      }
    }
    span.addEvent(name, b.build());
  }

  @Override
  public void failed(String errorType, String message) {
    span.setAttribute("error.type", errorType);
    span.setStatus(StatusCode.ERROR, message == null ? "" : message);
  }

  @Override
  public void end() {
    if (!ended) {
      ended = true;
      span.end();
    }
  }

  @Override
  public String traceparent() {
    SpanContext c = span.getSpanContext();
    return "00-" + c.getTraceId() + "-" + c.getSpanId() + "-" + c.getTraceFlags().asHex();
  }

  @Override
  public String traceId() {
    return span.getSpanContext().getTraceId();
  }
}
