package dev.ratchet.verticles.http.impl.mcp;

import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;

/**
 * The answer to one JSON-RPC request over streamable HTTP: a plain JSON body, or an SSE stream
 * that can carry notifications (progress while a call waits) before the one response that ends it.
 */
final class McpReply {

  private final HttpServerResponse response;
  private boolean streaming;

  McpReply(HttpServerResponse response) {
    this.response = response;
  }

  /** Opens the SSE stream now, so notifications and keep-alives can go out before the answer. */
  void stream() {
    if (streaming || response.ended() || response.closed()) {
      return;
    }
    streaming = true;
    response.setStatusCode(200).setChunked(true)
        .putHeader("Content-Type", "text/event-stream")
        .putHeader("Cache-Control", "no-store")
        .putHeader("X-Accel-Buffering", "no");
    response.write(": ratchet\n\n");
  }

  boolean open() {
    return !response.ended() && !response.closed();
  }

  /** A notification on the stream; dropped when the answer is plain JSON. */
  void notify(JsonObject notification) {
    if (streaming && open()) {
      response.write("event: message\ndata: " + notification.encode() + "\n\n");
    }
  }

  /** An SSE comment, so proxies and clients see the stream is alive while nothing else happens. */
  void keepAlive() {
    if (streaming && open()) {
      response.write(": waiting\n\n");
    }
  }

  /** The JSON-RPC response; ends the exchange. */
  void answer(JsonObject message) {
    if (!open()) {
      return;
    }
    if (streaming) {
      response.end("event: message\ndata: " + message.encode() + "\n\n");
      return;
    }
    response.setStatusCode(200).putHeader("Content-Type", "application/json; charset=utf-8")
        .putHeader("Cache-Control", "no-store").end(message.encode());
  }
}
