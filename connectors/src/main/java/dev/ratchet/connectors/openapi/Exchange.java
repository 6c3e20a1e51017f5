package dev.ratchet.connectors.openapi;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;

import java.util.function.Function;

/**
 * Sends a request with the reading of its response attached before anything leaves. Vert.x gives
 * a response's body only to the handlers present when the body arrives: reading attached to the
 * future of {@code send()} on another thread than the request's event loop (the caller's own
 * thread, or the engine's context that completes {@code sending()}) comes too late when the whole
 * answer arrived in between, and its future then never completes.
 */
final class Exchange {

  private Exchange() {
  }

  /** The response, read by {@code reading}; {@code payload} null sends no body. */
  static <T> Future<T> send(HttpClientRequest request, Buffer payload,
                            Function<HttpClientResponse, Future<T>> reading) {
    Future<T> read = request.response().compose(reading);
    if (payload == null) {
      request.end();
    } else {
      request.end(payload);
    }
    return read;
  }
}
