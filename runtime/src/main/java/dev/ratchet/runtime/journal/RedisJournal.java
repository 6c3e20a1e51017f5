package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.journal.LuaScripts.Script;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The Redis journal: every step of every session, appended by one Lua script per state transition,
 * each fenced by the session owner's epoch (J4). Safe to share between sessions and threads. It is
 * the store's entry point: the engine's port ({@link SessionJournal}) here, the optional ports by
 * name ({@link #queries()}, {@link #retention()}, {@link #diagnostics()}, which adds what only Redis
 * knows), and raw commands ({@link #send}) for tools and tests. Split by role behind it: the steps
 * of turns and calls in {@link RedisTurnSteps}, of decisions in {@link RedisDecisionSteps}, of the
 * agent loop in {@link RedisLoopSteps}, reads in {@link RedisQueries}, and the client, pipelines and
 * errors in {@link RedisConnections}.
 */
public final class RedisJournal implements SessionJournal {

  private final RedisConnections redis;
  private final JournalKeys keys;
  private final RedisQueries queries;
  private final RedisDiagnostics diagnostics;
  private final RedisRetention retention;
  private final RedisTurnSteps turns;
  private final RedisDecisionSteps decisions;
  private final RedisLoopSteps loop;

  private RedisJournal(Vertx vertx, JournalOptions options) {
    this.redis = new RedisConnections(vertx, options);
    this.keys = new JournalKeys(options.keyPrefix());
    this.queries = new RedisQueries(redis, keys);
    this.diagnostics = new RedisDiagnostics(redis, keys);
    this.retention = new RedisRetention(vertx, redis, keys, queries);
    this.turns = new RedisTurnSteps(redis, keys, queries);
    this.decisions = new RedisDecisionSteps(redis, keys);
    this.loop = new RedisLoopSteps(redis, keys);
  }

  /** The layout of the keys this journal writes and reads, kept under {@link JournalKeys#layout()}. */
  static final String LAYOUT = "1";

  /**
   * Connects, loads the journal's scripts and checks the journal's layout: a journal with no layout
   * key gets this one (every journal without the key has it), a journal of another layout is
   * refused rather than misread.
   */
  public static Future<RedisJournal> open(Vertx vertx, JournalOptions options) {
    RedisJournal journal = new RedisJournal(vertx, options);
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

  // ---------------------------------------------------------------- recovery reads (RedisQueries)

  @Override
  public Future<List<InflightTurn>> inflightTurns(String sessionId) {
    return queries.inflightTurns(sessionId);
  }

  @Override
  public Future<TurnResult> turnResult(String sessionId, String turnId) {
    return queries.turnResult(sessionId, turnId);
  }

  @Override
  public Future<CallState> callState(String sessionId, CallId callId) {
    return queries.callState(sessionId, callId);
  }

  @Override
  public Future<ApprovalRequest> approvalRequest(String sessionId, CallId callId) {
    return queries.approvalRequest(sessionId, callId.value());
  }

  @Override
  public Future<List<JsonObject>> conversation(String sessionId) {
    return queries.conversation(sessionId);
  }

  // ---------------------------------------------------------------- turns and calls (RedisTurnSteps)

  @Override
  public Future<SubmitAnswer> submitTurn(TurnSubmission submission) {
    return turns.submitTurn(submission);
  }

  @Override
  public Future<TurnResult> turnCompleted(String sessionId, long epoch, TurnResult result) {
    return turns.turnCompleted(sessionId, epoch, result);
  }

  @Override
  public Future<CallResult> callStarted(String sessionId, long epoch, String turnId, CallStart start) {
    return turns.callStarted(sessionId, epoch, turnId, start);
  }

  @Override
  public Future<CompletedCalls> callsCompleted(String sessionId, long epoch, String turnId, List<CallResult> records,
                                               TurnResult turnResult, CallStart nextWrite,
                                               Function<CallResult, String> resultTexts) {
    return turns.callsCompleted(sessionId, epoch, turnId, records, turnResult, nextWrite, resultTexts);
  }

  @Override
  public Future<Void> appendEvent(String sessionId, long epoch, String type, String turnId, String callId,
                                  JsonObject data) {
    return turns.appendEvent(sessionId, epoch, type, turnId, callId, data);
  }

  // ---------------------------------------------------------------- decisions (RedisDecisionSteps)

  @Override
  public Future<String> approvalRequested(long epoch, ApprovalRequest request) {
    return decisions.approvalRequested(epoch, request);
  }

  @Override
  public Future<DecisionAnswer> approvalDecided(String sessionId, CallId callId, Verdict verdict) {
    return decisions.approvalDecided(sessionId, callId, verdict);
  }

  @Override
  public Future<CallResult> reconcile(String sessionId, CallId callId, Outcome outcome, String who, String note) {
    return decisions.reconcile(sessionId, callId, outcome, who, note);
  }

  // ---------------------------------------------------------------- agent loop (RedisLoopSteps)

  @Override
  public Future<ConversationAppend> messageUser(UserMessage message) {
    return loop.messageUser(message);
  }

  @Override
  public Future<ConversationAppend> modelResponse(String sessionId, long epoch, long step, String turnId,
                                                  JsonObject entry, JsonObject eventData) {
    return loop.modelResponse(sessionId, epoch, step, turnId, entry, eventData);
  }

  @Override
  public Future<ConversationAppend> roundEnded(String sessionId, long epoch, String endId, String eventType,
                                               JsonObject entry, JsonObject eventData) {
    return loop.roundEnded(sessionId, epoch, endId, eventType, entry, eventData);
  }

  @Override
  public Future<Void> markIdle(String sessionId) {
    return loop.markIdle(sessionId);
  }

  // ---------------------------------------------------------------- helpers

  private static String now() {
    return String.valueOf(System.currentTimeMillis());
  }
}
