package dev.ratchet.runtime.journal;

import io.netty.channel.EventLoop;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.net.ClientSSLOptions;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A Redis client that gives every Vert.x event loop one connection of its own, shared by all the
 * sessions that run on that loop; callers off an event loop use the pool.
 *
 * <p>Why: a pooled command holds a connection for its whole round trip and answers on the thread
 * of whichever context opened that connection, so every journal step of a session costs a hop
 * between event-loop threads. On a loop's own connection the reply arrives on the session's
 * thread, and steps that many sessions issue in the same loop iteration leave in one write
 * (pipelined), which is also what lets Redis serve them with fewer system calls. Commands of one
 * session stay in order on one connection.
 *
 * <p>The journal's script runs, its hot path, go on a second connection per loop that the journal
 * owns ({@link RespConnection}), with the RESP it encoded itself; commands of the client's own
 * (pipelines, reads) on the client's. A session waits for each step's reply before its next
 * step, so two connections keep its steps in order.
 */
final class EventLoopRedis implements Redis {

  private final VertxInternal vertx;
  private final Redis pool;
  private final Redis connector;
  private final Map<EventLoop, Loop> byLoop = new ConcurrentHashMap<>();
  private final int maxInFlight;
  /** The server of the loops' own connections; null for a URL they cannot reach (every request then goes through the client). */
  private final RedisEndpoint endpoint;
  private final NetClient net;
  private final ClientSSLOptions tls;
  private final Map<EventLoop, Future<RespConnection>> own = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /** A loop's connection and the commands in flight on it. */
  private static final class Loop {
    final Future<RedisConnection> connection;
    final java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();

    Loop(Future<RedisConnection> connection) {
      this.connection = connection;
    }
  }

  /**
   * @param pool for commands sent off an event loop, and while a loop's connection is busy or down
   * @param connector opens the loops' connections; each stays leased for as long as it works
   * @param maxInFlight commands a loop's connection may have in flight (its client's waiting
   *     handlers); beyond that, commands go through the pool instead of failing
   * @param url the server, which the loops' own connections reach as the client does (its TCP and
   *     TLS settings are the client's defaults)
   */
  EventLoopRedis(Vertx vertx, Redis pool, Redis connector, int maxInFlight, String url) {
    this.vertx = (VertxInternal) vertx;
    this.pool = pool;
    this.connector = connector;
    this.maxInFlight = maxInFlight;
    RedisEndpoint parsed;
    try {
      parsed = RedisEndpoint.parse(url);
    } catch (IllegalArgumentException e) {
      parsed = null;
    }
    this.endpoint = parsed;
    NetClientOptions net = new NetClientOptions(new RedisOptions().getNetClientOptions());
    this.tls = net.getSslOptions();
    this.net = parsed == null ? null : vertx.createNetClient(net);
  }

  @Override
  public Future<RedisConnection> connect() {
    return pool.connect();
  }

  @Override
  public Future<Response> send(Request request) {
    return onLoop(1, c -> c.send(request), () -> pool.send(request));
  }

  /**
   * Sends a request this journal encoded: on the loop's own connection ({@link RespConnection}),
   * written as encoded; off an event loop, or while the loop's own connection is down or full,
   * through the pool as the client's own request.
   */
  Future<Response> send(RespRequest request) {
    if (!request.encodable() || endpoint == null) {
      return send(request.request());
    }
    ContextInternal ctx = (ContextInternal) Vertx.currentContext();
    if (closed || ctx == null || !ctx.isEventLoopContext() || !ctx.nettyEventLoop().inEventLoop()) {
      return pool.send(request.request());
    }
    EventLoop eventLoop = ctx.nettyEventLoop();
    Future<RespConnection> conn = own.computeIfAbsent(eventLoop, this::openOwn);
    if (conn.failed()) {
      own.remove(eventLoop, conn);
      return pool.send(request.request());
    }
    if (conn.succeeded()) {
      return sendOn(conn.result(), request, ctx);
    }
    // the connection answers on this loop once open: the request waits for it
    return conn.compose(c -> sendOn(c, request, ctx), err -> pool.send(request.request()));
  }

  private Future<Response> sendOn(RespConnection connection, RespRequest request, ContextInternal ctx) {
    return connection.isOpen() && connection.waiting() < maxInFlight ? connection.send(request, ctx)
        : pool.send(request.request());
  }

  /** Opens a loop's own connection from a context of its own on that loop; a connection that closes is forgotten. */
  private Future<RespConnection> openOwn(EventLoop eventLoop) {
    ContextInternal home = vertx.contextBuilder().withEventLoop(eventLoop).build();
    Promise<RespConnection> opened = home.promise();
    Future<RespConnection> connection = opened.future();
    RespConnection.open(net, tls, endpoint, home).onComplete(ar -> {
      if (ar.succeeded()) {
        ar.result().onClose(() -> own.remove(eventLoop, connection));
        if (closed) {
          ar.result().close();
        }
      } else {
        own.remove(eventLoop, connection);
      }
      opened.handle(ar);
    });
    return connection;
  }

  @Override
  public Future<List<Response>> batch(List<Request> requests) {
    return onLoop(requests.size(), c -> c.batch(requests), () -> pool.batch(requests));
  }

  private <T> Future<T> onLoop(int commands, Function<RedisConnection, Future<T>> op,
                               java.util.function.Supplier<Future<T>> viaPool) {
    ContextInternal ctx = (ContextInternal) Vertx.currentContext();
    if (closed || ctx == null || !ctx.isEventLoopContext()) {
      return viaPool.get();
    }
    EventLoop eventLoop = ctx.nettyEventLoop();
    Loop loop = byLoop.computeIfAbsent(eventLoop, this::open);
    Future<RedisConnection> conn = loop.connection;
    if (conn.failed()) {
      byLoop.remove(eventLoop, loop);
      return viaPool.get();
    }
    if (loop.inFlight.get() + commands > maxInFlight || conn.succeeded() && conn.result().pendingQueueFull()) {
      return viaPool.get();
    }
    loop.inFlight.addAndGet(commands);
    Future<T> answer = conn.succeeded() ? op.apply(conn.result()) : conn.compose(op, err -> viaPool.get());
    return answer.andThen(ar -> loop.inFlight.addAndGet(-commands));
  }

  /** Opens a loop's connection from a context of its own on that loop, so that no deployment owns it. */
  private Loop open(EventLoop eventLoop) {
    Promise<RedisConnection> opened = Promise.promise();
    ContextInternal home = vertx.contextBuilder().withEventLoop(eventLoop).build();
    home.runOnContext(v -> connector.connect().onComplete(opened));
    Loop loop = new Loop(opened.future());
    loop.connection.onSuccess(c -> {
      c.exceptionHandler(err -> drop(eventLoop, loop));
      c.endHandler(v -> drop(eventLoop, loop));
      if (closed) {
        drop(eventLoop, loop);
      }
    });
    loop.connection.onFailure(err -> byLoop.remove(eventLoop, loop));
    return loop;
  }

  private void drop(EventLoop eventLoop, Loop loop) {
    byLoop.remove(eventLoop, loop);
    loop.connection.onSuccess(c -> c.close());
  }

  @Override
  public Future<Void> close() {
    closed = true;
    byLoop.forEach(this::drop);
    own.values().forEach(c -> c.onSuccess(RespConnection::close));
    return Future.join(pool.close(), connector.close(), net == null ? Future.succeededFuture() : net.close()).mapEmpty();
  }
}
