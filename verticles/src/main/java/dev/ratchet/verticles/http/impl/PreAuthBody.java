package dev.ratchet.verticles.http.impl;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;

/**
 * Holds a request's body unread until someone decides to read it: the small body handler of the
 * public routes, or the full one behind the {@link AuthHandler}. A request answered before its
 * body was read (refused, or too large) ends its HTTP/1 connection, so that the server neither
 * buffers nor reads what an unauthenticated client keeps sending; an HTTP/2 stream shares its
 * connection with others, so the rest of its data is dropped unbuffered as it arrives.
 */
public final class PreAuthBody {

  private PreAuthBody() {
  }

  /** The first handler of the router. */
  public static void hold(RoutingContext ctx) {
    HttpServerRequest request = ctx.request();
    boolean http2 = request.version() == HttpVersion.HTTP_2;
    if (request.isEnded() || !http2 && !hasBody(request)) {
      ctx.next();
      return;
    }
    request.pause();
    if (!http2) {
      ctx.addHeadersEndHandler(v -> {
        if (!request.isEnded()) {
          ctx.response().putHeader("Connection", "close");
        }
      });
    }
    ctx.addEndHandler(ar -> {
      if (request.isEnded()) {
        return;
      }
      if (http2) {
        // one stream of many: its data is dropped as it comes, since unread data would hold the
        // connection's flow-control window for good
        request.handler(ignored -> { }).resume();
      } else {
        request.connection().close();
      }
    });
    ctx.next();
  }

  /** Whether an HTTP/1 request announces a body; without one its connection stays open for the next request. */
  private static boolean hasBody(HttpServerRequest request) {
    String length = request.getHeader("Content-Length");
    return request.getHeader("Transfer-Encoding") != null || length != null && !length.trim().equals("0");
  }
}
