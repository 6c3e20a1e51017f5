package dev.ratchet.verticles.http.impl;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.web.sstore.SessionStore;
import io.vertx.ext.web.sstore.redis.RedisSessionStore;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.impl.RequestImpl;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The Redis client of the login-session store: Vert.x Web's {@link RedisSessionStore} names a
 * session's key by its id alone, so this client puts the journal's key prefix in front
 * ({@code <keyPrefix>:http-session:<id>}) and refuses the store's whole-database commands
 * ({@code FLUSHDB}, {@code DBSIZE}), which would reach the journal's keys. Like the journal's, its
 * client is replaced by a fresh one after Redis could not be reached, since a pool whose
 * connections were cut can stay wedged.
 */
public final class PrefixedSessionRedis implements Redis {

  private static final Set<Command> KEYED = Set.of(Command.GET, Command.SET, Command.DEL, Command.PEXPIRE);
  private static final long REPLACE_EVERY_MILLIS = 1_000;
  private static final long RETIRE_MILLIS = 30_000;

  private final Vertx vertx;
  private final Supplier<Redis> clients;
  private final byte[] prefix;
  private volatile Redis redis;
  private final java.util.concurrent.atomic.AtomicLong replacedAt = new java.util.concurrent.atomic.AtomicLong();
  private volatile boolean closed;

  private PrefixedSessionRedis(Vertx vertx, Supplier<Redis> clients, String prefix) {
    this.vertx = vertx;
    this.clients = clients;
    this.prefix = prefix.getBytes(StandardCharsets.UTF_8);
    this.redis = client();
  }

  /**
   * A session store on the Redis that {@code clients} make (a fresh one each time the last could
   * not reach Redis): the journal's own deployment, a Cluster or a Sentinel-managed master included.
   */
  public static SessionStore store(Vertx vertx, Supplier<Redis> clients, String keyPrefix) {
    return RedisSessionStore.create(vertx, new PrefixedSessionRedis(vertx, clients, keyPrefix + ":http-session:"));
  }

  private Redis client() {
    return clients.get();
  }

  private <T> Future<T> replacingOnFailure(Future<T> sent) {
    return sent.onFailure(err -> {
      long now = System.currentTimeMillis();
      long last = replacedAt.get();
      if (closed || now - last < REPLACE_EVERY_MILLIS || !replacedAt.compareAndSet(last, now)) {
        return;
      }
      Redis old = redis;
      redis = client();
      vertx.setTimer(RETIRE_MILLIS, t -> old.close());
    });
  }

  /** The Redis key of a login session. */
  public static String key(String keyPrefix, String sessionId) {
    return keyPrefix + ":http-session:" + sessionId;
  }

  @Override
  public Future<Response> send(Request request) {
    Request prefixed;
    try {
      prefixed = prefixed(request);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    return replacingOnFailure(redis.send(prefixed));
  }

  @Override
  public Future<List<Response>> batch(List<Request> requests) {
    List<Request> prefixed = new ArrayList<>(requests.size());
    try {
      for (Request r : requests) {
        prefixed.add(prefixed(r));
      }
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    return replacingOnFailure(redis.batch(prefixed));
  }

  @Override
  public Future<RedisConnection> connect() {
    return Future.failedFuture(new UnsupportedOperationException("the session store's Redis lends no connections"));
  }

  @Override
  public Future<Void> close() {
    closed = true;
    return redis.close();
  }

  private Request prefixed(Request request) {
    if (!KEYED.contains(request.command()) || !(request instanceof RequestImpl)) {
      throw new IllegalArgumentException("the login-session store may not send " + request.command()
          + ": the Redis is shared with the journal");
    }
    List<byte[]> args = ((RequestImpl) request).getArgs();
    if (args.isEmpty()) {
      throw new IllegalArgumentException(request.command() + " without a key");
    }
    byte[] key = new byte[prefix.length + args.get(0).length];
    System.arraycopy(prefix, 0, key, 0, prefix.length);
    System.arraycopy(args.get(0), 0, key, prefix.length, args.get(0).length);
    Request out = Request.cmd(request.command()).arg(key);
    for (int i = 1; i < args.size(); i++) {
      out.arg(args.get(i));
    }
    return out;
  }
}
