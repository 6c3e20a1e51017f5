package dev.ratchet.runtime.journal;

import io.netty.channel.EventLoop;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.impl.RedisStandaloneConnection;

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
 */
final class EventLoopRedis implements Redis {

  private final VertxInternal vertx;
  private final Redis pool;
  private final Redis connector;
  private final Map<EventLoop, Loop> byLoop = new ConcurrentHashMap<>();
  private final int maxInFlight;
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
   */
  EventLoopRedis(Vertx vertx, Redis pool, Redis connector, int maxInFlight) {
    this.vertx = (VertxInternal) vertx;
    this.pool = pool;
    this.connector = connector;
    this.maxInFlight = maxInFlight;
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
   * Sends a request this journal encoded: on the loop's own connection, written as encoded
   * ({@link EncodedWrites}); elsewhere as the client's own request.
   */
  Future<Response> send(RespRequest request) {
    if (!request.encodable()) {
      return send(request.request());
    }
    ContextInternal ctx = (ContextInternal) Vertx.currentContext();
    return onLoop(1, c -> {
      RedisStandaloneConnection target = EncodedWrites.target(c);
      // a connection still opening answers later, maybe on another thread: then the client sends
      return target == null || !ctx.nettyEventLoop().inEventLoop() ? c.send(request.request())
          : EncodedWrites.send(target, request, ctx);
    }, () -> pool.send(request.request()));
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
    return Future.join(pool.close(), connector.close()).mapEmpty();
  }
}
