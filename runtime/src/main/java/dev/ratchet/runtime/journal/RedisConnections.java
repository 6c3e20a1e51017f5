package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.journal.LuaScripts.Script;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisCluster;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The Redis journal's connections: the client (replaced when Redis was unreachable), commands,
 * pipelines and script runs, each failure classified as a {@link RatchetException} with the
 * journal's codes ({@code FENCED}, {@code JOURNAL_UNAVAILABLE}, {@code JOURNAL_ERROR}, ...).
 */
final class RedisConnections {

  /** How long a replaced client may finish the commands it still has before it is closed. */
  private static final long RETIRE_MILLIS = 30_000;
  /** At most one replacement of the client per this many milliseconds while Redis is unreachable. */
  private static final long REPLACE_EVERY_MILLIS = 1_000;
  /** Most commands one pipeline of the journal's own carries. */
  static final int PIPELINE = 512;

  private final Vertx vertx;
  private final JournalOptions options;
  private volatile Redis redis;
  private final AtomicLong replacedAt = new AtomicLong();
  private volatile boolean closed;
  private final LuaScripts scripts;
  private final LongAdder commandsSent = new LongAdder();
  /** Null when steps do not wait for replicas. */
  private final ReplicaWait replicaWait;
  private final boolean cluster;

  RedisConnections(Vertx vertx, JournalOptions options) {
    this.vertx = vertx;
    this.options = options;
    this.redis = RedisClients.create(vertx, options);
    this.cluster = options.topology().isCluster();
    this.scripts = new LuaScripts(() -> redis, cluster);
    this.replicaWait = ReplicaWait.of(options);
  }

  /** Loads the journal's scripts: the first round trip, which tells whether Redis answers. */
  Future<Void> load() {
    return scripts.load();
  }

  void close() {
    closed = true;
    redis.close();
  }

  /** The Redis URL with any password hidden; for a Cluster or Sentinel, the endpoints and the deployment. */
  String describe() {
    RedisTopology topology = options.topology();
    if (topology.isStandalone()) {
      return redactUrl(options.redisUrl());
    }
    List<String> endpoints = new ArrayList<>();
    topology.endpointsOr(options.redisUrl()).forEach(e -> endpoints.add(redactUrl(e)));
    return topology.isCluster() ? "Redis Cluster via " + String.join(", ", endpoints)
        : "master '" + topology.masterName() + "' of the sentinels " + String.join(", ", endpoints);
  }

  /**
   * What an acknowledged step's copies on replicas are: the {@code journal.waitReplicas} guarantee;
   * empty for one server whose steps do not wait, where no failover is configured.
   */
  String replication() {
    if (replicaWait != null) {
      return replicaWait.describe();
    }
    return options.topology().isStandalone() ? ""
        : "steps do not wait for replicas (journal.waitReplicas 0): a failover may lose the last acknowledged steps";
  }

  /** Commands sent since the journal was opened (each script run counts once). */
  long commandsSent() {
    return commandsSent.sum();
  }

  /**
   * Runs {@code script} after {@code before} in one pipeline (one round trip); a server that lost
   * its script cache gets the script body again, without the commands before it.
   */
  Future<Response> runAfter(List<Request> before, Script script, List<?> keyList, List<?> args) {
    if (cluster) {
      // the commands before may be on other nodes: they go first, each to its node, then the script
      return pipeline(before).compose(v -> run(script, keyList, args));
    }
    List<Request> pipeline = new ArrayList<>(before);
    pipeline.add(scripts.request(script, keyList, args));
    return batch(pipeline, true)
        .map(replies -> replies.get(before.size()))
        .recover(err -> {
          String msg = pipelinedError(err);
          if (msg.startsWith("NOSCRIPT")) {
            return run(script, keyList, args);
          }
          return Future.failedFuture(failure(err));
        });
  }

  /**
   * One pipeline to one connection, with the {@code WAIT} of {@code journal.waitReplicas} after it
   * when it writes; answers the replies of {@code requests}, failures not yet classified.
   */
  private Future<List<Response>> batch(List<Request> requests, boolean writes) {
    if (replicaWait == null || !writes) {
      commandsSent.add(requests.size());
      return redis.batch(requests);
    }
    commandsSent.add(requests.size() + 1);
    return redis.batch(replicaWait.after(requests)).compose(replicaWait::check);
  }

  /**
   * Replaces the pooled client after Redis was unreachable. The client made by
   * {@code Redis.createClient} opens new connections on demand, but once its connections were cut
   * (Redis restarted or unreachable) its pool can stay wedged and refuse every later command with
   * "Connection pool reached max wait queue size" even when Redis is back. A fresh client opens
   * fresh connections; the old one is closed once the commands it still holds had time to finish.
   */
  private void replaceClient() {
    long now = System.currentTimeMillis();
    long last = replacedAt.get();
    if (closed || now - last < REPLACE_EVERY_MILLIS || !replacedAt.compareAndSet(last, now)) {
      return;
    }
    Redis old = redis;
    redis = RedisClients.create(vertx, options);
    vertx.setTimer(RETIRE_MILLIS, t -> old.close());
  }

  /** Sends one command. */
  Future<Response> send(Request request) {
    if (replicaWait != null && SlotRuns.writes(request)) {
      return batch(List.of(request), true).map(replies -> replies.get(0))
          .recover(err -> Future.failedFuture(failure(err)));
    }
    commandsSent.increment();
    return redis.send(request).recover(err -> Future.failedFuture(failure(err)));
  }

  /**
   * Sends a command without a key (SCAN) to the node that holds {@code key}: on a Redis Cluster a
   * keyless command goes to any node, but a pipeline goes to the node of its keys.
   */
  Future<Response> onNodeOf(String key, Request keyless) {
    return pipeline(List.of(Request.cmd(Command.EXISTS).arg(key), keyless))
        .map(replies -> replies.get(1));
  }

  /** A command without keys (INFO) on every master: the one server, or each master of a Redis Cluster. */
  Future<List<Response>> onEveryMaster(Request request) {
    if (!cluster) {
      return send(request).map(List::of);
    }
    commandsSent.increment();
    return redis.connect()
        .compose(c -> RedisCluster.create(c).onAllMasterNodes(request).andThen(done -> c.close()))
        .recover(err -> Future.failedFuture(failure(err)));
  }

  Future<Void> batch(List<Request> requests) {
    return pipeline(requests).mapEmpty();
  }

  /**
   * The requests in one round trip, or in pipelines of {@value #PIPELINE} one after another when
   * there are more; answers their replies in order. One batch larger than the client's queue of
   * waiting commands would fail whole, every time, as if Redis were unreachable.
   */
  Future<List<Response>> pipeline(List<Request> requests) {
    return pipeline(requests, true);
  }

  /**
   * As {@link #pipeline(List)}; {@code replicated} false sends writes that are no journal step
   * (the layout mark) without waiting for replicas.
   */
  Future<List<Response>> pipeline(List<Request> requests, boolean replicated) {
    if (cluster) {
      return inSlotRuns(requests, replicated);
    }
    if (requests.size() <= PIPELINE) {
      return batch(requests, replicated && replicaWait != null && SlotRuns.anyWrites(requests))
          .recover(err -> Future.failedFuture(failure(err)));
    }
    List<Response> replies = new ArrayList<>(requests.size());
    Future<List<Response>> chain = Future.succeededFuture(replies);
    for (int from = 0; from < requests.size(); from += PIPELINE) {
      List<Request> chunk = requests.subList(from, Math.min(requests.size(), from + PIPELINE));
      chain = chain.compose(acc -> pipeline(chunk, replicated).map(part -> {
        acc.addAll(part);
        return acc;
      }));
    }
    return chain;
  }

  Future<Response> run(Script script, List<?> keyList, List<?> args) {
    if (replicaWait == null) {
      commandsSent.increment();
      return scripts.run(script, keyList, args).recover(err -> Future.failedFuture(failure(err)));
    }
    return batch(List.of(scripts.request(script, keyList, args)), true)
        .recover(err -> pipelinedError(err).startsWith("NOSCRIPT")
            // a master that lost its script cache (a promoted replica) gets the body
            ? batch(List.of(scripts.evalRequest(script, keyList, args)), true) : Future.failedFuture(err))
        .map(replies -> replies.get(0))
        .recover(err -> Future.failedFuture(failure(err)));
  }

  /**
   * A pipeline on a Redis Cluster, which refuses one whose keys are on several nodes: cut into runs
   * of one slot ({@link SlotRuns}). Reads go all at once; runs that write go one after another in
   * the pipeline's order, each waiting for its replicas, so that a write the journal orders before
   * another (an index entry before its turn) reaches Redis first.
   */
  private Future<List<Response>> inSlotRuns(List<Request> requests, boolean replicated) {
    List<List<Request>> runs = SlotRuns.of(requests);
    boolean writes = SlotRuns.anyWrites(requests);
    if (runs.size() == 1) {
      return batch(runs.get(0), replicated && writes).recover(err -> Future.failedFuture(failure(err)));
    }
    List<Response> replies = new ArrayList<>(requests.size());
    if (!writes) {
      List<Future<List<Response>>> parts = new ArrayList<>(runs.size());
      for (List<Request> run : runs) {
        parts.add(batch(run, false));
      }
      return Future.all(parts).map(all -> {
        for (Future<List<Response>> part : parts) {
          replies.addAll(part.result());
        }
        return replies;
      }).recover(err -> Future.failedFuture(failure(err)));
    }
    Future<List<Response>> chain = Future.succeededFuture(replies);
    for (List<Request> run : runs) {
      chain = chain.compose(acc -> batch(run, replicated && SlotRuns.anyWrites(run)).map(part -> {
        acc.addAll(part);
        return acc;
      }));
    }
    return chain.recover(err -> Future.failedFuture(failure(err)));
  }

  /** Classifies a failed command; when Redis could not be reached, the next commands go through a fresh client. */
  private Throwable failure(Throwable err) {
    Throwable classified = classify(err);
    if (RatchetException.is(classified, ErrorCode.JOURNAL_UNAVAILABLE)) {
      replaceClient();
    }
    return classified;
  }

  private static final java.util.regex.Pattern TRANSIENT_SERVER_STATE =
      java.util.regex.Pattern.compile("(LOADING|BUSY|MASTERDOWN|TRYAGAIN|CLUSTERDOWN|READONLY|MOVED|ASK|NOREPLICAS|CONNECTION_CLOSED)\\b");

  /**
   * A pipeline's command failed by its connection, not by Redis: the client reports the Java
   * exception (a broken pipe, a reset) as the command's error. Redis's own errors start with an
   * upper-case code, never with a class name.
   */
  private static final java.util.regex.Pattern CONNECTION_FAILURE =
      java.util.regex.Pattern.compile("(java|io\\.netty|io\\.vertx)\\.[\\w.$]*(Exception|Error)\\b");

  /** A batch fails whole with {@code ERR [index] message}; the message is what the failing command said. */
  private static String pipelinedError(Throwable err) {
    String msg = String.valueOf(err.getMessage());
    java.util.regex.Matcher m = PIPELINED.matcher(msg);
    return m.matches() ? m.group(1) : msg;
  }

  private static final java.util.regex.Pattern PIPELINED = java.util.regex.Pattern.compile("ERR \\[\\d+\\] (.*)",
      java.util.regex.Pattern.DOTALL);

  private static Throwable classify(Throwable err) {
    if (err instanceof RatchetException) {
      return err;
    }
    // a pipeline fails whole with the reply of the command that failed in it
    String msg = pipelinedError(err);
    if (msg.startsWith("FENCED")) {
      return new RatchetException(ErrorCode.FENCED, "this node no longer owns the session: " + msg.substring(6).trim());
    }
    if (msg.startsWith("SESSION_ERASED")) {
      return new RatchetException(ErrorCode.SESSION_ERASED, msg.substring(14).trim());
    }
    if (msg.startsWith("AGENT_MISMATCH")) {
      return new RatchetException(ErrorCode.AGENT_MISMATCH, msg.substring(15).trim());
    }
    if (msg.startsWith("CALLER_MISMATCH")) {
      return new RatchetException(ErrorCode.CALLER_MISMATCH, msg.substring(16).trim());
    }
    if (msg.startsWith("SESSION_EXISTS")) {
      return new RatchetException(ErrorCode.SESSION_EXISTS, msg.substring(15).trim());
    }
    if (TRANSIENT_SERVER_STATE.matcher(msg).lookingAt() || CONNECTION_FAILURE.matcher(msg).lookingAt()) {
      // the server cannot serve yet (loading its AOF after a restart, a failover, a slow script), or the
      // client failed the command because its connection closed under it
      return unavailable("the journal (Redis) cannot serve commands yet", err);
    }
    if (err instanceof io.vertx.redis.client.impl.types.ErrorType || err instanceof RespError || msg.contains("(CROSSSLOT)")) {
      return new RatchetException(ErrorCode.JOURNAL_ERROR, "the journal refused a step: " + msg);
    }
    return unavailable("the journal (Redis) is unreachable", err);
  }

  static RatchetException unavailable(String message, Throwable cause) {
    return new RatchetException(ErrorCode.JOURNAL_UNAVAILABLE, message + ": " + reason(cause), cause);
  }

  /**
   * What went wrong, in words: the first message in the chain of causes, else the error's kind
   * (Netty reports a connection closed under it without a message).
   */
  static String reason(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof java.nio.channels.ClosedChannelException) {
        return "the connection was closed";
      }
      String message = t.getMessage();
      // a wrapper's message is its cause's name: the cause says more
      if (message != null && !message.isBlank() && (t.getCause() == null || !message.equals(t.getCause().toString()))) {
        return message;
      }
    }
    return error.getClass().getName();
  }

  static String redactUrl(String url) {
    return url == null ? null : url.replaceAll("//([^:@/]*):[^@/]*@", "//$1:***@")
        .replaceAll("([?&]password=)[^&]*", "$1***");
  }
}
