package dev.ratchet.runtime.journal;

import io.vertx.core.Future;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.List;

/**
 * Vert.x's Redis Cluster client behind one cluster connection, opened once and shared by every
 * command: that connection keeps one connection per node and sends each command (or pipeline) to
 * the master of its slot, many in flight at once.
 *
 * <p>Why: every command the plain cluster client sends opens a cluster connection of its own,
 * which takes a pooled connection to every node; many commands at once (a recovery, a pipeline
 * cut per slot) then each hold some nodes' connections while waiting for the others', and stall
 * until the pool gives up. A connection that fails is opened again on the next command; a client
 * the journal finds unreachable is replaced whole ({@link RedisConnections}).
 */
final class ClusterConnectionRedis implements Redis {

  private final Redis client;
  private volatile Future<RedisConnection> connection;
  private volatile boolean closed;

  ClusterConnectionRedis(Redis client) {
    this.client = client;
  }

  /** A cluster connection of the caller's own, from the client (as {@code RedisCluster} asks for). */
  @Override
  public Future<RedisConnection> connect() {
    return client.connect();
  }

  @Override
  public Future<Response> send(Request request) {
    return shared().compose(c -> c.send(request));
  }

  @Override
  public Future<List<Response>> batch(List<Request> requests) {
    return shared().compose(c -> c.batch(requests));
  }

  private Future<RedisConnection> shared() {
    Future<RedisConnection> current = connection;
    if (current != null && !current.failed()) {
      return current;
    }
    synchronized (this) {
      if (connection == current) {
        connection = client.connect().onSuccess(c -> {
          if (closed) {
            c.close();
          }
        });
      }
      return connection;
    }
  }

  @Override
  public Future<Void> close() {
    closed = true;
    Future<RedisConnection> current = connection;
    if (current != null) {
      current.onSuccess(RedisConnection::close);
    }
    return client.close();
  }
}
