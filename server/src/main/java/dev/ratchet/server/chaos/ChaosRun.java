package dev.ratchet.server.chaos;

import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.journal.JournalOptions;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.embedded.RedisServerProcess;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The chaos run: a {@link ChaosNode} runtime in a child JVM under a mixed workload, killed with
 * SIGKILL at random moments and started again, over and over, on one Redis (AOF, appendfsync
 * always) while a {@link ChaosProvider} counts what was actually sent. After the last kill the
 * runtime drains every turn, and the journal and the provider's counts are checked against the
 * rules: see {@link ChaosReport#violations}.
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

  record Submitted(String sessionId, Turn turn) {
    String id() {
      return sessionId + "/" + turn.turnId();
    }
  }

  final Settings settings;
  final PrintStream log;
  final Random random;
  final ChaosReport report = new ChaosReport();
  final String prefix = "chaos-" + UUID.randomUUID().toString().substring(0, 8);
  final Map<String, Submitted> submitted = new LinkedHashMap<>();
  final Set<String> accepted = ConcurrentHashMap.newKeySet();
  final Map<String, JsonObject> delivered = new ConcurrentHashMap<>();
  final Map<String, Boolean> decisions = new ConcurrentHashMap<>();
  final AtomicInteger submitErrors = new AtomicInteger();
  final List<String> childErrors = Collections.synchronizedList(new ArrayList<>());
  private final ChaosChecks checks = new ChaosChecks(this);
  private int turnCounter;

  public ChaosRun(Settings settings, PrintStream log) {
    this.settings = settings;
    this.log = log;
    this.random = new Random(settings.seed());
    report.seed = settings.seed();
  }

  public ChaosReport run() throws Exception {
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
        ChaosChild child = new ChaosChild(this, redisUrl, provider.url(), work.resolve("child.log"));
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

  void submit(ChaosChild child, Submitted s) throws IOException {
    child.send(new JsonObject().put("cmd", "submit").put("sessionId", s.sessionId()).put("turn", s.turn().toJson()));
  }

  void resubmitUnaccepted(ChaosChild child) throws IOException {
    for (Submitted s : submitted.values()) {
      if (!accepted.contains(s.id())) {
        report.resubmissions++;
        submit(child, s);
      }
    }
  }

  /** Decides every pending approval through the runtime: about three in four approved. */
  void decideApprovals(RedisJournal journal, ChaosChild child) throws IOException {
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
  void drain(RedisJournal journal, ChaosChild child) throws Exception {
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

  /** Checked after every kill: no non-idempotent call has two effects; no idempotent call used two keys. */
  void checkEffects(ChaosProvider provider, String when) {
    checks.effects(provider, when);
  }

  /** Checked after the drain: every rule, on every submitted turn ({@link ChaosChecks}). */
  void verify(RedisJournal journal, ChaosProvider provider) {
    checks.all(journal, provider);
  }
}
