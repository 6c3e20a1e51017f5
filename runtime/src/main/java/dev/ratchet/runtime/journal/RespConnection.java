package dev.ratchet.runtime.journal;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.net.ClientSSLOptions;
import io.vertx.core.net.ConnectOptions;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import io.vertx.redis.client.Response;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A connection to one Redis server that the journal owns end to end (docs/ARCHITECTURE.md, "The
 * journal's own connection"): it writes the RESP a {@link RespRequest} encoded, and answers each
 * request with the next reply Redis sends, replies in the order of their requests (pipelined, any
 * number in flight). An error reply fails its request with a {@link RespError}; a connection that
 * closes or fails fails every request still waiting, and every later one.
 *
 * <p>Why its own rather than the Redis client's: the client encodes only requests it built
 * itself, which costs the journal's hot path half as many bytes again per call
 * (docs/PERFORMANCE.md); this one writes the journal's bytes as they are. It is used from the
 * thread of the event loop it was opened on, where its socket's handlers also run.
 */
final class RespConnection implements RespReader.Replies {

  private final NetSocket socket;
  private final RedisEndpoint endpoint;
  private final RespReader reader = new RespReader();
  private final ArrayDeque<Promise<Response>> waiting = new ArrayDeque<>();
  private Throwable closedBy;
  private Runnable onClose = () -> { };

  private RespConnection(NetSocket socket, RedisEndpoint endpoint) {
    this.socket = socket;
    this.endpoint = endpoint;
    socket.handler(this::read);
    socket.exceptionHandler(this::fail);
    socket.closeHandler(v -> fail(null));
  }

  /**
   * Opens a connection on {@code context}'s event loop and logs in: {@code AUTH} when the endpoint
   * has a password, {@code SELECT} when it names a database other than 0. Fails with what Redis
   * answered (never with the password) when it refuses either.
   */
  static Future<RespConnection> open(NetClient client, ClientSSLOptions tls, RedisEndpoint endpoint,
                                     ContextInternal context) {
    Promise<RespConnection> opened = context.promise();
    context.runOnContext(v -> {
      ConnectOptions connect = new ConnectOptions().setRemoteAddress(endpoint.address()).setSsl(endpoint.tls());
      if (endpoint.tls()) {
        connect.setSslOptions(tls);
      }
      client.connect(connect).map(socket -> new RespConnection(socket, endpoint))
          .compose(c -> c.logIn(context).recover(err -> {
            c.close();
            return Future.failedFuture(new IllegalStateException("Redis at " + endpoint
                + " refused the journal's connection: " + err.getMessage()));
          }))
          .onComplete(opened);
    });
    return opened.future();
  }

  private Future<RespConnection> logIn(ContextInternal context) {
    List<Future<Response>> steps = new ArrayList<>(2);
    if (endpoint.authenticates()) {
      steps.add(send(endpoint.user() == null ? command("AUTH", endpoint.password())
          : command("AUTH", endpoint.user(), endpoint.password()), context));
    }
    if (endpoint.db() != 0) {
      // sent without waiting: Redis answers in order, and a refused AUTH fails the login first
      steps.add(send(command("SELECT", Long.toString(endpoint.db())), context));
    }
    return Future.all(steps).map(this);
  }

  private static RespRequest command(String name, String... args) {
    return new RespRequest(null, name, Arrays.copyOf(args, args.length, Object[].class));
  }

  /** Runs {@code onClose} once this connection closed or failed, whichever way. */
  void onClose(Runnable onClose) {
    this.onClose = onClose;
    if (closedBy != null) {
      onClose.run();
    }
  }

  /** Requests written whose replies have not arrived. */
  int waiting() {
    return waiting.size();
  }

  boolean isOpen() {
    return closedBy == null;
  }

  /**
   * Writes {@code request} and answers its reply, on {@code context}; from the thread of this
   * connection's event loop only.
   */
  Future<Response> send(RespRequest request, ContextInternal context) {
    Promise<Response> reply = context.promise();
    if (closedBy != null) {
      reply.fail(closedBy);
      return reply.future();
    }
    Buffer bytes = request.encode();
    waiting.add(reply);
    socket.write(bytes).onFailure(this::fail);
    return reply.future();
  }

  /** Closes the socket; requests still waiting fail. */
  Future<Void> close() {
    return socket.close();
  }

  private void read(Buffer chunk) {
    try {
      reader.read(chunk, this);
    } catch (IllegalStateException e) {
      fail(new IllegalStateException("the connection to Redis at " + endpoint + " stopped: " + e.getMessage()));
      socket.close();
    }
  }

  @Override
  public void reply(Response reply) {
    Promise<Response> next = waiting.poll();
    if (next != null) {
      next.tryComplete(reply);
    }
  }

  @Override
  public void error(String message) {
    Promise<Response> next = waiting.poll();
    if (next != null) {
      next.tryFail(new RespError(message));
    }
  }

  /** Fails every waiting request and every later one; {@code cause} null when the socket closed. */
  private void fail(Throwable cause) {
    if (closedBy == null) {
      closedBy = new IllegalStateException("the connection to Redis at " + endpoint + " closed"
          + (cause == null ? "" : ": " + RedisConnections.reason(cause)), cause);
    }
    Promise<Response> next;
    while ((next = waiting.poll()) != null) {
      next.tryFail(closedBy);
    }
    if (cause != null) {
      socket.close();
    }
    Runnable then = onClose;
    onClose = () -> { };
    then.run();
  }
}
