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
final class LoopConnections implements Redis {

  private final VertxInternal vertx;
  private final Redis pool;
  private final Redis connector;
  private final Map<EventLoop, Future<RedisConnection>> byLoop = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /**
   * @param pool for commands sent off an event loop, and while a loop's connection is busy or down
   * @param connector opens the loops' connections; each stays leased for as long as it works
   */
  LoopConnections(Vertx vertx, Redis pool, Redis connector) {
    this.vertx = (VertxInternal) vertx;
    this.pool = pool;
    this.connector = connector;
  }

  @Override
  public Future<RedisConnection> connect() {
    return pool.connect();
  }

  @Override
  public Future<Response> send(Request request) {
    return onLoop(c -> c.send(request), () -> pool.send(request));
  }

  @Override
  public Future<List<Response>> batch(List<Request> requests) {
    return onLoop(c -> c.batch(requests), () -> pool.batch(requests));
  }

  private <T> Future<T> onLoop(Function<RedisConnection, Future<T>> op, java.util.function.Supplier<Future<T>> viaPool) {
    ContextInternal ctx = (ContextInternal) Vertx.currentContext();
    if (closed || ctx == null || !ctx.isEventLoopContext()) {
      return viaPool.get();
    }
    Future<RedisConnection> conn = byLoop.computeIfAbsent(ctx.nettyEventLoop(), this::open);
    if (conn.succeeded()) {
      RedisConnection c = conn.result();
      return c.pendingQueueFull() ? viaPool.get() : op.apply(c);
    }
    if (conn.failed()) {
      byLoop.remove(ctx.nettyEventLoop(), conn);
      return viaPool.get();
    }
    return conn.compose(op, err -> viaPool.get());
  }

  /** Opens a loop's connection from a context of its own on that loop, so that no deployment owns it. */
  private Future<RedisConnection> open(EventLoop loop) {
    Promise<RedisConnection> opened = Promise.promise();
    ContextInternal home = vertx.contextBuilder().withEventLoop(loop).build();
    home.runOnContext(v -> connector.connect().onComplete(opened));
    Future<RedisConnection> future = opened.future();
    future.onSuccess(c -> {
      c.exceptionHandler(err -> drop(loop, future));
      c.endHandler(v -> drop(loop, future));
      if (closed) {
        drop(loop, future);
      }
    });
    future.onFailure(err -> byLoop.remove(loop, future));
    return future;
  }

  private void drop(EventLoop loop, Future<RedisConnection> conn) {
    byLoop.remove(loop, conn);
    conn.onSuccess(c -> c.close());
  }

  @Override
  public Future<Void> close() {
    closed = true;
    byLoop.forEach(this::drop);
    return Future.join(pool.close(), connector.close()).mapEmpty();
  }
}
