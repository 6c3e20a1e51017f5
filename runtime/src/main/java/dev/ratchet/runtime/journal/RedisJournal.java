package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.journal.LuaScripts.Script;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.List;

/**
 * The Redis journal: every step of every session, appended by one Lua script per state transition,
 * each fenced by the session owner's epoch (J4). Safe to share between sessions and threads. It is
 * the store's entry point: the engine's port ({@link SessionJournal}) here, the optional ports by
 * name ({@link #queries()}, {@link #retention()}, {@link #diagnostics()}, which adds what only Redis
 * knows), and raw commands ({@link #send}) for tools and tests. Split by role behind it (the port's
 * methods handed to each role by {@link JournalRoles}): the steps of turns and calls in
 * {@link RedisTurnSteps}, of decisions in {@link RedisDecisionSteps}, of the agent loop in
 * {@link RedisLoopSteps}, reads in {@link RedisQueries}, and the client, pipelines and errors in
 * {@link RedisConnections}.
 */
public final class RedisJournal extends JournalRoles {

  private final RedisConnections redis;
  private final JournalKeys keys;
  private final RedisQueries queries;
  private final RedisDiagnostics diagnostics;
  private final RedisRetention retention;

  private RedisJournal(Vertx vertx, RedisConnections redis, JournalKeys keys, RedisQueries queries) {
    super(queries, new RedisTurnSteps(redis, keys, queries), new RedisDecisionSteps(redis, keys),
        new RedisLoopSteps(redis, keys));
    this.redis = redis;
    this.keys = keys;
    this.queries = queries;
    this.diagnostics = new RedisDiagnostics(redis, keys);
    this.retention = new RedisRetention(vertx, redis, keys, queries);
  }

  private static RedisJournal of(Vertx vertx, JournalOptions options) {
    RedisConnections redis = new RedisConnections(vertx, options);
    JournalKeys keys = new JournalKeys(options.keyPrefix());
    return new RedisJournal(vertx, redis, keys, new RedisQueries(redis, keys));
  }

  /** The layout of the keys this journal writes and reads, kept under {@link JournalKeys#layout()}. */
  static final String LAYOUT = "1";

  /**
   * Connects, loads the journal's scripts and checks the journal's layout: a journal with no layout
   * key gets this one (every journal without the key has it), a journal of another layout is
   * refused rather than misread.
   */
  public static Future<RedisJournal> open(Vertx vertx, JournalOptions options) {
    RedisJournal journal = of(vertx, options);
    return journal.redis.load()
        .recover(err -> Future.failedFuture(RedisConnections.unavailable("cannot open the journal at "
            + journal.describe(), err)))
        .compose(v -> journal.checkLayout())
        .map(journal)
        .onFailure(err -> journal.close());
  }

  private Future<Void> checkLayout() {
    String key = keys.layout();
    // the mark is no step: opening does not wait for replicas (journal.waitReplicas), the first step does
    return redis.pipeline(List.of(Request.cmd(Command.SET).arg(key).arg(LAYOUT).arg("NX"), Request.cmd(Command.GET).arg(key)),
            false)
        .recover(err -> Future.failedFuture(RedisConnections.unavailable("cannot read the journal's layout", err)))
        .compose(replies -> {
          String found = replies.get(1) == null ? null : replies.get(1).toString();
          return LAYOUT.equals(found) ? Future.succeededFuture()
              : Future.failedFuture(new RatchetException(ErrorCode.JOURNAL_LAYOUT, "this journal was written by layout " + found
                  + "; this Ratchet reads layout " + LAYOUT + " (key " + key + ")"));
        });
  }

  @Override
  public Future<Void> close() {
    redis.close();
    return Future.succeededFuture();
  }

  /** The Redis URL with any password hidden. */
  public String describe() {
    return redis.describe();
  }

  /**
   * What replicas hold of an acknowledged step, for the start-up line: with
   * {@code journal.waitReplicas} N, every step waited until N replicas held it. Empty for one
   * server whose steps do not wait.
   */
  public String replication() {
    return redis.replication();
  }

  // ---------------------------------------------------------------- session ownership

  /**
   * Takes ownership of a session (a new fencing epoch) and loads the turns it holds in flight with
   * each call's state, in two round trips: the claim answers the in-flight
   * turns in the same script, then every call's state is read at once. Sessions starting together
   * on one event loop (recovery) share that loop's connection, so their steps leave pipelined.
   */
  @Override
  public Future<ClaimedSession> claim(String sessionId, String owner) {
    return retention.notForgotten(sessionId).compose(v -> redis.run(Script.CLAIM_AND_LOAD,
        List.of(keys.meta(sessionId), keys.events(sessionId), keys.inflight(sessionId)),
        List.of(owner, now(), keys.turn(sessionId, "")))).compose(r -> {
          long epoch = r.get(0).toLong();
          String caller = r.get(1) == null || r.get(1).toString().isEmpty() ? null : r.get(1).toString();
          List<Turn> held = new ArrayList<>();
          List<Long> submitted = new ArrayList<>();
          List<String> entries = new ArrayList<>();
          List<JsonObject> specs = new ArrayList<>();
          for (int i = 2; i + 3 < r.size(); i += 4) {
            JsonObject spec = new JsonObject(r.get(i + 1).toString());
            held.add(Turn.fromJson(spec));
            specs.add(spec);
            submitted.add(r.get(i + 2).toLong());
            entries.add(r.get(i + 3).toString());
          }
          return queries.withCallStates(sessionId, held, submitted, entries, specs)
              .map(list -> new ClaimedSession(epoch, caller, list));
        });
  }

  /**
   * Drops a session from the recovery set when {@code epoch} is still its owner's. The set and the
   * session's meta live in different hash slots, so no script holds both on a Redis Cluster: the
   * session leaves the set first and is put back when it was there and the epoch read after that
   * is not {@code epoch}. A newer owner's claim precedes its own additions to the set, so a stale
   * owner's removal never hides the newer owner's session for longer than these two round trips.
   */
  @Override
  public Future<Void> markIdle(String sessionId, long epoch) {
    return redis.send(Request.cmd(Command.SREM).arg(keys.activeSessions()).arg(sessionId)).compose(removed ->
        removed == null || removed.toInteger() == 0 ? Future.succeededFuture()
            : redis.send(Request.cmd(Command.HGET).arg(keys.meta(sessionId)).arg("epoch"))
                .compose(current -> current != null && String.valueOf(epoch).equals(current.toString())
                    ? Future.succeededFuture()
                    : redis.send(Request.cmd(Command.SADD).arg(keys.activeSessions()).arg(sessionId))))
        .mapEmpty();
  }

  // ---------------------------------------------------------------- the optional ports

  /** The journal's read side. */
  public JournalQueries queries() {
    return queries;
  }

  /** Retention, erasure and import. */
  public JournalRetention retention() {
    return retention;
  }

  /** Redis's health and figures: persistence, replicas, INFO, command counts. */
  public RedisDiagnostics diagnostics() {
    return diagnostics;
  }

  /** Commands this journal has sent to Redis since it was opened (each script run counts once). */
  public long commandsSent() {
    return redis.commandsSent();
  }

  /** Sends a raw command; for tools and tests that inspect the journal's Redis. */
  public Future<Response> send(Request request) {
    return redis.send(request);
  }

  // ---------------------------------------------------------------- helpers

  private static String now() {
    return String.valueOf(System.currentTimeMillis());
  }
}
