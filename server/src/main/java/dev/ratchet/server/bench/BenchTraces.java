package dev.ratchet.server.bench;

import com.sun.net.httpserver.HttpServer;
import dev.ratchet.runtime.TurnTracer;
import dev.ratchet.server.trace.impl.OtelTurnTracer;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Tracing for one bench point, as {@code ratchet run} has it with an OTLP endpoint set: every span
 * sampled, batched (with a queue of {@value #QUEUE} spans, batches of {@value #BATCH}, every 200 ms), and sent
 * over OTLP/HTTP in protobuf to a local collector that reads and drops them. Closing it turns
 * tracing off again.
 */
final class BenchTraces implements AutoCloseable {

  static final int QUEUE = 262_144;
  static final int BATCH = 4_096;

  private final HttpServer sink;
  private final SdkTracerProvider provider;
  private final AtomicLong bytes = new AtomicLong();

  private BenchTraces() throws IOException {
    sink = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    sink.createContext("/v1/traces", exchange -> {
      try (InputStream in = exchange.getRequestBody()) {
        bytes.addAndGet(in.readAllBytes().length);
      }
      exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    sink.start();
    // a queue deep enough for the bench's rate: the SDK's default of 2,048 spans drops most of them,
    // which would make tracing look cheaper than it is
    provider = SdkTracerProvider.builder().addSpanProcessor(BatchSpanProcessor.builder(OtlpHttpSpanExporter.builder()
        .setEndpoint("http://127.0.0.1:" + sink.getAddress().getPort() + "/v1/traces").build())
        .setMaxQueueSize(QUEUE).setMaxExportBatchSize(BATCH).setScheduleDelay(Duration.ofMillis(200)).build()).build();
    TurnTracer.install(new OtelTurnTracer(OpenTelemetrySdk.builder().setTracerProvider(provider).build()));
  }

  /** Tracing on until closed when {@code on}, else nothing. */
  static BenchTraces install(boolean on) throws IOException {
    return on ? new BenchTraces() : null;
  }

  /** Bytes of OTLP the collector received so far. */
  long bytesReceived() {
    return bytes.get();
  }

  @Override
  public void close() {
    TurnTracer.install(TurnTracer.OFF);
    provider.shutdown().join(10, TimeUnit.SECONDS);
    sink.stop(0);
  }
}
