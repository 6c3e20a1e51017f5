package dev.ratchet.server.trace;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;

import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import static dev.ratchet.runtime.testing.Await.await;

/**
 * An OTLP/HTTP trace collector on a free port of 127.0.0.1: takes {@code POST /v1/traces} in
 * protobuf, as the OpenTelemetry exporter sends it, and keeps every span with its resource.
 */
final class OtlpReceiver {

  /** A received span with its resource's attributes. */
  record Received(Span span, Map<String, String> resource) {

    String name() {
      return span.getName();
    }

    String traceId() {
      return hex(span.getTraceId());
    }

    String spanId() {
      return hex(span.getSpanId());
    }

    String parentId() {
      return hex(span.getParentSpanId());
    }

    String attribute(String key) {
      return text(span.getAttributesList(), key);
    }
  }

  private final List<Received> spans = new CopyOnWriteArrayList<>();
  private final List<String> contentTypes = new CopyOnWriteArrayList<>();
  private int port;

  OtlpReceiver start(Vertx vertx) {
    port = await(vertx.createHttpServer().requestHandler(this::handle).listen(0, "127.0.0.1")).actualPort();
    return this;
  }

  String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  List<Received> spans() {
    return spans;
  }

  List<String> contentTypes() {
    return contentTypes;
  }

  private void handle(HttpServerRequest req) {
    req.body().onSuccess(body -> {
      if (!"/v1/traces".equals(req.path()) || req.method().name().equals("GET")) {
        req.response().setStatusCode(404).end();
        return;
      }
      contentTypes.add(req.getHeader("Content-Type"));
      try {
        ExportTraceServiceRequest export = ExportTraceServiceRequest.parseFrom(body.getBytes());
        for (ResourceSpans rs : export.getResourceSpansList()) {
          Map<String, String> resource = attributes(rs.getResource());
          for (ScopeSpans ss : rs.getScopeSpansList()) {
            ss.getSpansList().forEach(s -> spans.add(new Received(s, resource)));
          }
        }
        req.response().putHeader("Content-Type", "application/x-protobuf")
            .end(io.vertx.core.buffer.Buffer.buffer(ExportTraceServiceResponse.getDefaultInstance().toByteArray()));
      } catch (Exception e) {
        req.response().setStatusCode(400).end(String.valueOf(e.getMessage()));
      }
    });
  }

  private static Map<String, String> attributes(Resource resource) {
    return resource.getAttributesList().stream().collect(Collectors.toMap(KeyValue::getKey, kv -> value(kv.getValue()),
        (a, b) -> b));
  }

  static String text(List<KeyValue> attributes, String key) {
    return attributes.stream().filter(kv -> kv.getKey().equals(key)).map(kv -> value(kv.getValue())).findFirst()
        .orElse(null);
  }

  private static String value(AnyValue v) {
    return switch (v.getValueCase()) {
      case STRING_VALUE -> v.getStringValue();
      case INT_VALUE -> String.valueOf(v.getIntValue());
      case BOOL_VALUE -> String.valueOf(v.getBoolValue());
      case DOUBLE_VALUE -> String.valueOf(v.getDoubleValue());
      default -> v.toString();
    };
  }

  static String hex(ByteString bytes) {
    return HexFormat.of().formatHex(bytes.toByteArray());
  }
}
