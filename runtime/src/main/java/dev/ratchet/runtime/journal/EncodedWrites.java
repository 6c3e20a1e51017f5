package dev.ratchet.runtime.journal;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.net.NetSocket;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.impl.ArrayQueue;
import io.vertx.redis.client.impl.PooledRedisConnection;
import io.vertx.redis.client.impl.RedisStandaloneConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Sends a {@link RespRequest} on a connection of the Vert.x Redis client as its own {@code send}
 * does, with the bytes this journal encoded: the reply's promise joins the connection's queue of
 * waiting replies, then the bytes are written to its socket. Used only on the thread of the
 * connection's event loop, where the client's {@code send} also runs at once, so commands sent
 * either way keep their order.
 *
 * <p>The client offers no way to send bytes it did not encode, so this reads three of its private
 * fields; when they are not there (another version of the client), every request goes through the
 * client's own {@code send}.
 */
final class EncodedWrites {

  private static final Logger LOG = LoggerFactory.getLogger(EncodedWrites.class);
  private static final VarHandle SOCKET;
  private static final VarHandle WAITING;
  private static final VarHandle CLOSED;

  static {
    VarHandle socket = null;
    VarHandle waiting = null;
    VarHandle closed = null;
    try {
      MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(RedisStandaloneConnection.class, MethodHandles.lookup());
      socket = lookup.findVarHandle(RedisStandaloneConnection.class, "netSocket", NetSocket.class);
      waiting = lookup.findVarHandle(RedisStandaloneConnection.class, "waiting", ArrayQueue.class);
      closed = lookup.findVarHandle(RedisStandaloneConnection.class, "closed", boolean.class);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      LOG.debug("journal requests go through the Redis client's own encoding: {}", e.toString());
      socket = null;
    }
    SOCKET = socket;
    WAITING = waiting;
    CLOSED = closed;
  }

  private EncodedWrites() {
  }

  /** The standalone connection under {@code connection} when requests can be written to it, else null. */
  static RedisStandaloneConnection target(RedisConnection connection) {
    if (SOCKET == null || !(connection instanceof PooledRedisConnection pooled)) {
      return null;
    }
    return pooled.actual() instanceof RedisStandaloneConnection standalone ? standalone : null;
  }

  /**
   * Sends {@code request} on {@code connection}, from the thread of the connection's event loop;
   * answers its reply, or fails as the client's {@code send} would.
   */
  static Future<Response> send(RedisStandaloneConnection connection, RespRequest request, ContextInternal context) {
    Promise<Response> reply = context.promise();
    if ((boolean) CLOSED.get(connection)) {
      reply.fail("Connection is closed");
      return reply.future();
    }
    Buffer bytes = request.encode();
    ArrayQueue waiting = (ArrayQueue) WAITING.get(connection);
    synchronized (waiting) {
      if (waiting.freeSlots() == 0) {
        reply.fail("Redis waiting queue is full");
        return reply.future();
      }
      waiting.offer(reply);
    }
    try {
      ((NetSocket) SOCKET.get(connection)).write(bytes).onFailure(connection::fail);
    } catch (RuntimeException e) {
      // as the client: a write that throws fails the connection, and with it every waiting reply
      connection.fail(e);
      reply.tryFail(e);
    }
    return reply.future();
  }
}
