package dev.ratchet.server.chaos;

import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.IdempotencyKey;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.journal.JournalOptions;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.embedded.RedisServerProcess;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The chaos run: a {@link ChaosNode} runtime in a child JVM under a mixed workload, killed with
 * SIGKILL at random moments and started again, over and over, on one Redis (AOF, appendfsync
 * always) while a {@link ChaosProvider} counts what was actually sent. After the last kill the
 * runtime drains every turn, and the journal and the provider's counts are checked against the
 * rules: see {@link Report#violations}.
 */
public final class ChaosRun {

  /** What to run. {@code redisUrl} null starts a redis-server of the run's own. */
  public record Settings(int kills, int sessions, int turnsPerCycle, long minRunMillis, long maxRunMillis,
                         long seed, String redisUrl, Path workDir, long drainSeconds, int nodes) {

    public static Settings defaults(int kills) {
      return new Settings(kills, 12, 6, 150, 900, System.nanoTime(), null, null, 180, 1);
    }

    /** Runs {@code n} clustered runtimes, killing one of them at a time, instead of one runtime. */
    public Settings withNodes(int n) {
      return new Settings(kills, sessions, turnsPerCycle, minRunMillis, maxRunMillis, seed, redisUrl, workDir,
          drainSeconds, n);
    }

    public Settings withSeed(long s) {
      return new Settings(kills, sessions, turnsPerCycle, minRunMillis, maxRunMillis, s, redisUrl, workDir,
          drainSeconds, nodes);
    }

    public Settings withRedisUrl(String url) {
      return new Settings(kills, sessions, turnsPerCycle, minRunMillis, maxRunMillis, seed, url, workDir,
          drainSeconds, nodes);
    }

    public Settings withRunMillis(long min, long max) {
      return new Settings(kills, sessions, turnsPerCycle, min, max, seed, redisUrl, workDir, drainSeconds, nodes);
    }

    public Settings withWorkDir(Path dir) {
      return new Settings(kills, sessions, turnsPerCycle, minRunMillis, maxRunMillis, seed, redisUrl, dir,
          drainSeconds, nodes);
    }
  }

  /** The figures of a run and every rule it found broken (empty when the run held). */
  public static final class Report {
    public int kills;
    public int turns;
    public int calls;
    public final Map<String, Integer> outcomes = new LinkedHashMap<>();
    public final Map<String, Integer> byTool = new LinkedHashMap<>();
    public int nonIdempotentWrites;
    public int duplicateEffects;
    public int idempotentResends;
    public int idempotentKeyChanges;
    public int duplicateOutcomes;
    public int lostTurns;
    public int lostCalls;
    public int deliveredTurns;
    public int retrievedOnly;
    public int approvalsAsked;
    public int approvalsApproved;
    public int approvalsRejected;
    public int pendingLeft;
    public int outcomeUnknown;
    public int outcomeUnknownReachedProvider;
    public int skipped;
    public int submitErrors;
    public int resubmissions;
    public final List<Long> resumeMillis = new ArrayList<>();
    public final List<Long> recoveryMillis = new ArrayList<>();
    /** Clustered: from a node's kill until every session it ran with work in flight had a live owner. */
    public final List<Long> takeoverMillis = new ArrayList<>();
    public int nodes = 1;
    public long seed;
    public long wallMillis;
    public final List<String> violations = new ArrayList<>();

    public JsonObject toJson() {
      List<Long> resume = new ArrayList<>(resumeMillis);
      Collections.sort(resume);
      List<Long> recovery = new ArrayList<>(recoveryMillis);
      Collections.sort(recovery);
      return new JsonObject().put("kills", kills).put("turns", turns).put("calls", calls)
          .put("outcomes", new JsonObject(new HashMap<>(outcomes))).put("byTool", new JsonObject(new HashMap<>(byTool)))
          .put("nonIdempotentWrites", nonIdempotentWrites).put("duplicateEffects", duplicateEffects)
          .put("idempotentResends", idempotentResends).put("idempotentKeyChanges", idempotentKeyChanges)
          .put("duplicateOutcomes", duplicateOutcomes).put("lostTurns", lostTurns).put("lostCalls", lostCalls)
          .put("deliveredTurns", deliveredTurns).put("retrievedOnlyTurns", retrievedOnly)
          .put("approvalsAsked", approvalsAsked).put("approvalsApproved", approvalsApproved)
          .put("approvalsRejected", approvalsRejected).put("pendingApprovalsLeft", pendingLeft)
          .put("outcomeUnknown", outcomeUnknown).put("outcomeUnknownThatReachedProvider", outcomeUnknownReachedProvider)
          .put("skipped", skipped).put("submitErrors", submitErrors).put("resubmissions", resubmissions)
          .put("killToReadyMs", percentiles(resume)).put("recoveryMs", percentiles(recovery)).put("nodes", nodes)
          .put("takeoverMs", percentiles(sorted(takeoverMillis)))
          .put("seed", seed).put("wallSeconds", wallMillis / 1000.0).put("violations", new JsonArray(violations));
    }

    private static List<Long> sorted(List<Long> values) {
      List<Long> copy = new ArrayList<>(values);
      Collections.sort(copy);
      return copy;
    }

    private static JsonObject percentiles(List<Long> sorted) {
      if (sorted.isEmpty()) {
        return new JsonObject();
      }
      return new JsonObject().put("p50", sorted.get(sorted.size() / 2))
          .put("p95", sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * 0.95) - 1)))
          .put("p99", sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * 0.99) - 1)))
          .put("max", sorted.get(sorted.size() - 1));
    }
  }

  record Submitted(String sessionId, Turn turn) {
    String id() {
      return sessionId + "/" + turn.turnId();
    }
  }

  final Settings settings;
  final PrintStream log;
  final Random random;
  final Report report = new Report();
  final String prefix = "chaos-" + UUID.randomUUID().toString().substring(0, 8);
  final Map<String, Submitted> submitted = new LinkedHashMap<>();
  final Set<String> accepted = ConcurrentHashMap.newKeySet();
  private final Map<String, JsonObject> delivered = new ConcurrentHashMap<>();
  private final Map<String, Boolean> decisions = new ConcurrentHashMap<>();
  final AtomicInteger submitErrors = new AtomicInteger();
  private final List<String> childErrors = Collections.synchronizedList(new ArrayList<>());
  private final Set<String> inFlightAtTakeover = new java.util.HashSet<>();
  private int turnCounter;

  public ChaosRun(Settings settings, PrintStream log) {
    this.settings = settings;
    this.log = log;
    this.random = new Random(settings.seed());
    report.seed = settings.seed();
  }

  public Report run() throws Exception {
    if (settings.nodes() > 1) {
      return new ClusterChaos(this).run();
    }
    long started = System.currentTimeMillis();
    Path work = settings.workDir() != null ? settings.workDir() : Files.createTempDirectory("ratchet-chaos");
    RedisServerProcess redis = settings.redisUrl() == null
        ? RedisServerProcess.start(0, work.resolve("redis"), "always") : null;
    String redisUrl = redis != null ? redis.url() : settings.redisUrl();
    Vertx vertx = Vertx.vertx();
    try (ChaosProvider provider = new ChaosProvider()) {
      RedisJournal journal = RedisJournal.open(vertx, JournalOptions.of(redisUrl).withKeyPrefix(prefix)).await();
      log.printf("chaos: %d kills, seed %d, redis %s, prefix %s, child logs in %s%n", settings.kills(),
          settings.seed(), redisUrl, prefix, work);
      long lastKill = 0;
      for (int cycle = 0; cycle <= settings.kills(); cycle++) {
        Child child = new Child(redisUrl, provider.url(), work.resolve("child.log"));
        try {
          long recovery = child.awaitReady(120);
          if (lastKill > 0) {
            report.resumeMillis.add(System.currentTimeMillis() - lastKill);
            report.recoveryMillis.add(recovery);
          }
          resubmitUnaccepted(child);
          if (cycle < settings.kills()) {
            int n = 1 + random.nextInt(settings.turnsPerCycle() * 2);
            for (int i = 0; i < n; i++) {
              submit(child, newTurn());
            }
            long runFor = settings.minRunMillis()
                + (long) (random.nextDouble() * (settings.maxRunMillis() - settings.minRunMillis()));
            long end = System.currentTimeMillis() + runFor;
            while (System.currentTimeMillis() < end) {
              decideApprovals(journal, child);
              Thread.sleep(Math.min(40, Math.max(1, end - System.currentTimeMillis())));
            }
            child.kill();
            lastKill = System.currentTimeMillis();
            report.kills++;
            checkEffects(provider, "after kill " + report.kills);
            if (report.kills % 10 == 0) {
              log.printf("chaos: %d kills, %d turns submitted, %d accepted%n", report.kills, submitted.size(),
                  accepted.size());
            }
          } else {
            drain(journal, child);
          }
        } finally {
          child.kill();
        }
      }
      verify(journal, provider);
      journal.close();
    } finally {
      vertx.close().await();
      if (redis != null) {
        redis.close();
      }
    }
    report.submitErrors = submitErrors.get();
    report.wallMillis = System.currentTimeMillis() - started;
    return report;
  }

  // ------------------------------------------------------------------ workload

  private static final String[] TOOLS = {"read_item", "read_item", "read_item", "upsert", "upsert", "upsert_blind",
      "charge", "charge", "charge_approved", "charge_approved"};

  Submitted newTurn() {
    String sessionId = "s" + random.nextInt(settings.sessions());
    String turnId = "t" + (turnCounter++);
    int n = 1 + random.nextInt(4);
    List<ToolCall> calls = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String tool = TOOLS[random.nextInt(TOOLS.length)];
      JsonObject args = new JsonObject().put("item", "i" + random.nextInt(1000)).put("amount", random.nextInt(500));
      if (!tool.startsWith("read") && random.nextInt(12) == 0) {
        args.put("fail", true);
      }
      calls.add(new ToolCall(tool, args, "m" + i));
    }
    Submitted s = new Submitted(sessionId, new Turn(turnId, calls));
    submitted.put(s.id(), s);
    return s;
  }

  void submit(Child child, Submitted s) throws IOException {
    child.send(new JsonObject().put("cmd", "submit").put("sessionId", s.sessionId()).put("turn", s.turn().toJson()));
  }

  void resubmitUnaccepted(Child child) throws IOException {
    for (Submitted s : submitted.values()) {
      if (!accepted.contains(s.id())) {
        report.resubmissions++;
        submit(child, s);
      }
    }
  }

  /** Decides every pending approval through the runtime: about three in four approved. */
  void decideApprovals(RedisJournal journal, Child child) throws IOException {
    List<ApprovalRequest> pending = journal.queries().pendingApprovals(1000).await();
    for (ApprovalRequest r : pending) {
      if (child.decidedHere.add(r.callId().value())) {
        boolean approve = decisions.computeIfAbsent(r.callId().value(), id -> random.nextInt(4) != 0);
        child.send(new JsonObject().put("cmd", "decide").put("sessionId", r.sessionId()).put("decision",
            new JsonObject().put("sessionId", r.sessionId()).put("callId", r.callId().value())
                .put("argumentsHash", r.argumentsHash()).put("approved", approve).put("approver", "chaos")
                .put("reason", approve ? "looks right" : "not this one")));
      }
    }
  }

  /** After the last kill: every submitted turn must complete. */
  void drain(RedisJournal journal, Child child) throws Exception {
    long deadline = System.currentTimeMillis() + settings.drainSeconds() * 1000;
    long nextResubmit = System.currentTimeMillis() + 3000;
    while (System.currentTimeMillis() < deadline) {
      decideApprovals(journal, child);
      if (unfinished(journal).isEmpty()) {
        return;
      }
      if (System.currentTimeMillis() > nextResubmit) {
        resubmitUnaccepted(child);
        nextResubmit = System.currentTimeMillis() + 3000;
      }
      Thread.sleep(200);
    }
  }

  private List<String> unfinished(RedisJournal journal) {
    List<Submitted> all = new ArrayList<>(submitted.values());
    List<Future<TurnResult>> results = new ArrayList<>();
    for (Submitted s : all) {
      results.add(journal.turnResult(s.sessionId(), s.turn().turnId()));
    }
    Future.join(results).otherwiseEmpty().await();
    List<String> open = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      if (results.get(i).failed() || results.get(i).result() == null) {
        open.add(all.get(i).id());
      }
    }
    return open;
  }

  // ------------------------------------------------------------------ invariants

  private void violation(String text) {
    if (report.violations.size() < 200) {
      report.violations.add(text);
    }
  }

  /** Checked after every kill: no non-idempotent call has two effects; no idempotent call used two keys. */
  void checkEffects(ChaosProvider provider, String when) {
    provider.nonIdempotentEffects.forEach((call, n) -> {
      if (n.get() > 1) {
        violation(when + ": non-idempotent call " + call + " took effect " + n.get() + " times");
      }
    });
    provider.keysByCall.forEach((call, keys) -> {
      if (keys.size() > 1) {
        violation(when + ": idempotent call " + call + " was sent with " + keys.size() + " different keys");
      }
    });
  }

  void verify(RedisJournal journal, ChaosProvider provider) {
    checkEffects(provider, "at the end");
    report.turns = submitted.size();
    for (Map.Entry<String, AtomicInteger> e : provider.nonIdempotentEffects.entrySet()) {
      if (e.getValue().get() > 1) {
        report.duplicateEffects += e.getValue().get() - 1;
      }
    }
    for (Set<String> keys : provider.keysByCall.values()) {
      report.idempotentKeyChanges += keys.size() - 1;
    }
    for (AtomicInteger n : provider.idempotentRequests.values()) {
      report.idempotentResends += Math.max(0, n.get() - 1);
    }
    Set<String> sessions = new java.util.TreeSet<>();
    submitted.values().forEach(s -> sessions.add(s.sessionId()));
    // J1: exactly one call.completed step per call; and which calls were in flight when their session was taken over
    for (String sessionId : sessions) {
      Map<String, Integer> completions = new HashMap<>();
      Set<String> started = new java.util.HashSet<>();
      String after = null;
      while (true) {
        List<JsonObject> events = journal.queries().events(sessionId, after, 1000).await();
        for (JsonObject e : events) {
          String type = e.getString("type");
          String call = e.getString("call");
          if (EventType.CALL_COMPLETED.wireName().equals(type)) {
            completions.merge(call, 1, Integer::sum);
            started.remove(call);
          } else if (EventType.CALL_STARTED.wireName().equals(type)) {
            started.add(call);
          } else if (EventType.SESSION_CLAIMED.wireName().equals(type)) {
            inFlightAtTakeover.addAll(started);
          }
        }
        if (events.size() < 1000) {
          break;
        }
        after = events.get(events.size() - 1).getString("id");
      }
      completions.forEach((call, n) -> {
        if (n > 1) {
          report.duplicateOutcomes += n - 1;
          violation("call " + call + " of session " + sessionId + " has " + n + " call.completed steps");
        }
      });
    }
    for (Submitted s : submitted.values()) {
      TurnResult result = journal.turnResult(s.sessionId(), s.turn().turnId()).await();
      report.calls += s.turn().calls().size();
      if (result == null) {
        report.lostTurns++;
        report.lostCalls += s.turn().calls().size();
        violation("turn " + s.id() + " has no results in the journal"
            + (accepted.contains(s.id()) ? " (it was accepted)" : " (never accepted)"));
        continue;
      }
      JsonObject seen = delivered.get(s.id());
      if (seen != null) {
        report.deliveredTurns++;
        if (!seen.equals(result.toJson())) {
          violation("turn " + s.id() + " was delivered with results other than the journaled ones");
        }
      } else {
        report.retrievedOnly++;
      }
      verifyTurn(s, result, provider);
    }
    report.pendingLeft = journal.queries().pendingApprovals(1000).await().size();
    if (report.pendingLeft > 0) {
      violation(report.pendingLeft + " approval(s) still pending after the drain");
    }
  }

  private void verifyTurn(Submitted s, TurnResult result, ChaosProvider provider) {
    List<ToolCall> calls = s.turn().calls();
    if (result.calls().size() != calls.size()) {
      violation("turn " + s.id() + " has " + result.calls().size() + " results for " + calls.size() + " calls");
      return;
    }
    boolean writeStopped = false;
    for (int i = 0; i < calls.size(); i++) {
      ToolCall call = calls.get(i);
      CallResult r = result.calls().get(i);
      String where = "turn " + s.id() + " call " + i + " (" + call.name() + ")";
      String callId = s.turn().callId(s.sessionId(), i).value();
      report.outcomes.merge(r.outcome().wireName() + (r.skipped() ? " (skipped)" : ""), 1, Integer::sum);
      report.byTool.merge(call.name(), 1, Integer::sum);
      if (!r.callId().value().equals(callId) || r.index() != i || !r.tool().equals(call.name())) {
        violation(where + ": result out of order or for another call");
      }
      boolean write = r.effectClass() != EffectClass.READ;
      boolean nonIdempotent = r.effectClass() == EffectClass.NON_IDEMPOTENT_WRITE;
      int effects = nonIdempotent ? ChaosProvider.count(provider.nonIdempotentEffects, callId)
          : r.effectClass() == EffectClass.IDEMPOTENT_WRITE
          ? ChaosProvider.count(provider.idempotentEffects, IdempotencyKey.of(r.callId(), call.arguments()).value())
          : -1;
      if (nonIdempotent) {
        report.nonIdempotentWrites++;
      }
      if (r.skipped()) {
        report.skipped++;
        if (!writeStopped) {
          violation(where + ": skipped although no earlier write of its turn failed");
        }
        if (effects > 0) {
          violation(where + ": skipped but the provider saw its effect");
        }
      }
      if (r.outcome() == Outcome.OUTCOME_UNKNOWN) {
        report.outcomeUnknown++;
        if (!write) {
          violation(where + ": a read ended outcome_unknown");
        } else if (!inFlightAtTakeover.contains(callId)) {
          violation(where + ": outcome_unknown but it was not in flight when its runtime was killed: " + r.error());
        }
        if (effects > 0 || ChaosProvider.count(provider.idempotentRequests,
            IdempotencyKey.of(r.callId(), call.arguments()).value()) > 0) {
          report.outcomeUnknownReachedProvider++;
        }
      }
      if (write && r.outcome() == Outcome.SUCCEEDED && effects != 1) {
        violation(where + ": succeeded but the provider counted " + effects + " effect(s)");
      }
      if (write && r.outcome() == Outcome.FAILED && effects != 0) {
        violation(where + ": failed but the provider counted " + effects + " effect(s)");
      }
      boolean failFlag = call.arguments().getBoolean("fail", false);
      if (r.outcome() == Outcome.SUCCEEDED && failFlag) {
        violation(where + ": succeeded although the provider refuses it");
      }
      if (call.name().equals("charge_approved") && !r.skipped()) {
        report.approvalsAsked++;
        Boolean decided = decisions.get(callId);
        if (r.approval() == null || decided == null) {
          violation(where + ": ran or ended without an approval decision");
        } else if (decided != r.approval().approved() || !"chaos".equals(r.approval().approver())) {
          violation(where + ": its approval record does not match the decision taken");
        } else if (decided) {
          report.approvalsApproved++;
        } else {
          report.approvalsRejected++;
          if (effects != 0 || r.outcome() != Outcome.FAILED) {
            violation(where + ": rejected but ended " + r.outcome() + " with " + effects + " effect(s)");
          }
        }
      }
      if (write && r.outcome() != Outcome.SUCCEEDED && !r.skipped()) {
        writeStopped = true;
      }
    }
  }

  // ------------------------------------------------------------------ the child runtime

  /** One incarnation of the runtime under test. */
  final class Child {
    final NodeProcess process;
    final CountDownLatch ready = new CountDownLatch(1);
    final Set<String> decidedHere = ConcurrentHashMap.newKeySet();
    volatile long recoveryMillis;
    volatile String node;

    Child(String redisUrl, String providerUrl, Path logFile) throws IOException {
      this(redisUrl, providerUrl, logFile, List.of());
    }

    /** {@code clusterArgs}: empty, or this member's cluster port and every member's host:port, comma-separated. */
    Child(String redisUrl, String providerUrl, Path logFile, List<String> clusterArgs) throws IOException {
      List<String> args = new ArrayList<>(List.of(redisUrl, prefix, providerUrl));
      args.addAll(clusterArgs);
      process = new NodeProcess(List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"), args, logFile,
          "chaos-child-stdout", this::read);
    }

    private void read(String line) {
      if (!line.startsWith("{")) {
        return;
      }
      JsonObject j = new JsonObject(line);
      switch (j.getString("event", "")) {
        case "ready":
          recoveryMillis = j.getLong("recoveryMs", 0L);
          node = j.getString("node");
          ready.countDown();
          break;
        case "accepted":
          accepted.add(j.getString("sessionId") + "/" + j.getString("turnId"));
          break;
        case "result": {
          JsonObject results = j.getJsonObject("results");
          delivered.put(results.getString("sessionId") + "/" + results.getString("turnId"), results);
          break;
        }
        case "error":
          submitErrors.incrementAndGet();
          childErrors.add(j.encode());
          break;
        default:
          break;
      }
    }

    long awaitReady(int seconds) throws InterruptedException {
      if (!ready.await(seconds, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the chaos runtime did not start within " + seconds + " s");
      }
      return recoveryMillis;
    }

    void send(JsonObject command) throws IOException {
      process.send(command);
    }

    boolean isReady() {
      return ready.getCount() == 0 && process.isAlive();
    }

    /** SIGKILL: no shutdown hook runs, nothing is flushed. */
    void kill() throws InterruptedException {
      process.kill();
    }
  }
}
