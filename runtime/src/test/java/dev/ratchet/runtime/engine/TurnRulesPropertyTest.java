package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.journal.JournalPorts;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.IdempotencyKey;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RetryPolicy;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.ToolNotSentException;
import dev.ratchet.runtime.ToolResult;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.journal.InMemoryJournal;
import dev.ratchet.runtime.journal.SessionJournal;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The turn rules under random input: random turns of random effect classes, provider behaviours,
 * approval decisions and crash points (a node that dies in the middle of one call, its session
 * resumed by a second node on the same journal). Whatever is drawn, the rules hold: one outcome per
 * call in the model's order, no non-idempotent write twice, outcome_unknown only for a write that
 * may have reached the provider, skipping after a bad write, rejections enforced, resubmission idempotent.
 */
class TurnRulesPropertyTest {

  enum Behaviour { SUCCEED, REJECT, NOT_SENT, UNCERTAIN, FLAKY_THEN_SUCCEED }

  enum Approval { NONE, APPROVE, REJECT }

  /** Where node 1 dies while running the call: not at all, before its effect, or after it. */
  enum Crash { NONE, BEFORE_EFFECT, AFTER_EFFECT }

  record Spec(EffectClass effectClass, Behaviour behaviour, Approval approval) {
  }

  /** Where the journal shared by both nodes of a try answers callers outside any context. */
  private static volatile Vertx journalVertx;

  private static synchronized Vertx journalVertx() {
    if (journalVertx == null) {
      journalVertx = Vertx.vertx();
    }
    return journalVertx;
  }

  @Provide
  Arbitrary<List<Spec>> turns() {
    Arbitrary<Spec> spec = Combinators.combine(
        Arbitraries.of(EffectClass.class), Arbitraries.of(Behaviour.class), Arbitraries.of(Approval.class))
        .as((e, b, a) -> new Spec(e, b, e == EffectClass.READ ? Approval.NONE : a));
    return spec.list().ofMinSize(1).ofMaxSize(5);
  }

  /** What the provider saw: effects per call id (non-idempotent) or per key (idempotent), requests per call id. */
  static final class World {
    final Map<String, AtomicInteger> effects = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
    volatile int crashAt = -1;
    volatile Crash crash = Crash.NONE;
    final CountDownLatch crashed = new CountDownLatch(1);

    int effects(String id) {
      AtomicInteger n = effects.get(id);
      return n == null ? 0 : n.get();
    }

    int requests(String callId) {
      AtomicInteger n = requests.get(callId);
      return n == null ? 0 : n.get();
    }
  }

  private static AgentDefinition agent(Vertx vertx, World world, boolean firstNode) {
    FunctionToolSource source = FunctionToolSource.create("prop");
    for (EffectClass ec : EffectClass.values()) {
      for (boolean ask : new boolean[] {false, true}) {
        if (ec == EffectClass.READ && ask) {
          continue;
        }
        String name = ec.name().toLowerCase() + (ask ? "_approved" : "");
        source.tool(FunctionToolSource.define(name, ec)
            .approval(ask ? ApprovalRule.always() : ApprovalRule.never())
            .retry(new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(2), 2.0))
            .timeout(Duration.ofSeconds(30))
            .invoke(inv -> {
              String callId = inv.callId().value();
              String effectId = ec == EffectClass.IDEMPOTENT_WRITE ? inv.idempotencyKey().value() : callId;
              int index = inv.arguments().getInteger("index");
              Behaviour b = Behaviour.valueOf(inv.arguments().getString("behaviour"));
              int request = world.requests.computeIfAbsent(callId, k -> new AtomicInteger()).incrementAndGet();
              if (firstNode && index == world.crashAt && world.crash != Crash.NONE) {
                if (world.crash == Crash.AFTER_EFFECT && ec != EffectClass.READ) {
                  apply(world, ec, effectId);
                }
                world.crashed.countDown();
                return Promise.<ToolResult>promise().future(); // never answers: the node dies now
              }
              if (ec == EffectClass.IDEMPOTENT_WRITE && world.effects(effectId) > 0) {
                // a provider that honours idempotency keys answers a replay with the first result
                return Future.succeededFuture(ToolResult.success(new JsonObject().put("ok", index)));
              }
              switch (b) {
                case REJECT:
                  return Future.succeededFuture(ToolResult.rejected("refused by the provider"));
                case NOT_SENT:
                  return Future.failedFuture(new ToolNotSentException("connection refused"));
                case UNCERTAIN:
                  return Future.failedFuture(new java.io.IOException("connection reset after sending"));
                case FLAKY_THEN_SUCCEED:
                  if (request == 1) {
                    return Future.succeededFuture(ToolResult.retryable("busy, try again", 0));
                  }
                  break;
                default:
                  break;
              }
              if (ec != EffectClass.READ) {
                apply(world, ec, effectId);
              }
              return Future.succeededFuture(ToolResult.success(new JsonObject().put("ok", index)));
            }));
      }
    }
    return AgentDefinition.builder("prop-agent").toolSource(source).build();
  }

  private static void apply(World world, EffectClass ec, String effectId) {
    AtomicInteger n = world.effects.computeIfAbsent(effectId, k -> new AtomicInteger());
    if (ec == EffectClass.IDEMPOTENT_WRITE) {
      n.compareAndSet(0, 1); // a provider that honours idempotency keys
    } else {
      n.incrementAndGet();
    }
  }

  private static final class Node implements AutoCloseable {
    final Vertx vertx = Vertx.vertx();
    final SessionJournal journal;
    final SessionEngine engine;

    Node(SessionJournal journal, String sessionId, World world, boolean first) {
      this.journal = journal;
      ToolCatalog catalog = await(ToolCatalog.resolve(vertx, agent(vertx, world, first)));
      engine = new SessionEngine(vertx, journal, sessionId, catalog, EngineOptions.DEFAULT, null);
      await(engine.start(first ? "node-1" : "node-2"));
    }

    @Override
    public void close() {
      try {
        await(vertx.close());
      } catch (RuntimeException e) {
        // already gone
      }
    }
  }

  @Property(tries = 40, shrinking = ShrinkingMode.OFF)
  void theTurnRulesHoldForAnyTurnOutcomeApprovalAndCrashPoint(
      @ForAll("turns") List<Spec> specs, @ForAll Crash crash, @ForAll("crashIndex") int crashIndex) throws Exception {
    // both nodes share one journal, as two nodes share one Redis
    SessionJournal journal = InMemoryJournal.create(journalVertx());
    String sessionId = "s-" + UUID.randomUUID();
    World world = new World();
    int crashAt = crashIndex % specs.size();
    // a crash point only matters where the call runs on node 1: approve it so a write reaches the provider
    world.crash = crash;
    world.crashAt = crashAt;
    List<ToolCall> calls = new ArrayList<>();
    for (int i = 0; i < specs.size(); i++) {
      Spec s = specs.get(i);
      String tool = s.effectClass().name().toLowerCase() + (s.approval() != Approval.NONE ? "_approved" : "");
      calls.add(new ToolCall(tool, new JsonObject().put("index", i).put("behaviour", s.behaviour().name())));
    }
    Turn turn = new Turn("t1", calls);

    TurnResult result;
    boolean crashed = false;
    Node first = new Node(journal, sessionId, world, true);
    Node second = null;
    try {
      Future<TurnResult> running = first.engine.submit(turn);
      long deadline = System.currentTimeMillis() + 30_000;
      while (!running.isComplete() && world.crashed.getCount() > 0) {
        decide(first.journal, first.engine, sessionId, specs, turn);
        world.crashed.await(10, TimeUnit.MILLISECONDS);
        assertThat(System.currentTimeMillis()).as("turn finished or crashed in time").isLessThan(deadline);
      }
      if (world.crashed.getCount() == 0) {
        crashed = true;
        first.close();
        second = new Node(journal, sessionId, world, false);
        Node n = second;
        while (await(n.journal.turnResult(sessionId, "t1")) == null) {
          decide(n.journal, n.engine, sessionId, specs, turn);
          Thread.sleep(10);
          assertThat(System.currentTimeMillis()).as("resumed turn finished in time").isLessThan(deadline + 30_000);
        }
        result = await(n.journal.turnResult(sessionId, "t1"));
      } else {
        result = await(running);
      }
      Node live = second != null ? second : first;
      // the calls node 1 had started (journaled call_started) when it died: in flight at the crash
      java.util.Set<String> inFlightAtCrash = new java.util.HashSet<>();
      int claims = 0;
      for (JsonObject e : await(JournalPorts.queries(live.journal).events(sessionId, null, 10_000))) {
        if ("session.claimed".equals(e.getString("type"))) {
          claims++;
        } else if ("call.started".equals(e.getString("type")) && claims == 1) {
          inFlightAtCrash.add(e.getString("call"));
        } else if ("call.completed".equals(e.getString("type")) && claims == 1) {
          inFlightAtCrash.remove(e.getString("call"));
        }
      }
      if (!crashed) {
        inFlightAtCrash.clear();
      }
      check(specs, turn, sessionId, result, world, crashed ? crashAt : -1, inFlightAtCrash);

      // rule 1: submitting the same turn again runs nothing and answers the same results
      Map<String, Integer> before = snapshot(world);
      assertThat(await(live.engine.submit(turn))).isEqualTo(result);
      assertThat(snapshot(world)).isEqualTo(before);

      // J1: one call.completed step per call
      Map<String, Integer> completions = new java.util.HashMap<>();
      for (JsonObject e : await(JournalPorts.queries(live.journal).events(sessionId, null, 10_000))) {
        if ("call.completed".equals(e.getString("type"))) {
          completions.merge(e.getString("call"), 1, Integer::sum);
        }
      }
      assertThat(completions).hasSize(specs.size());
      assertThat(completions.values()).containsOnly(1);
    } finally {
      first.close();
      if (second != null) {
        second.close();
      }
    }
  }

  @Provide
  Arbitrary<Integer> crashIndex() {
    return Arbitraries.integers().between(0, 4);
  }

  private static Map<String, Integer> snapshot(World world) {
    Map<String, Integer> m = new java.util.TreeMap<>();
    world.effects.forEach((k, v) -> m.put("e:" + k, v.get()));
    world.requests.forEach((k, v) -> m.put("r:" + k, v.get()));
    return m;
  }

  private static void decide(SessionJournal journal, SessionEngine engine, String sessionId, List<Spec> specs,
                             Turn turn) {
    for (ApprovalRequest r : await(JournalPorts.queries(journal).pendingApprovals(1000))) {
      if (!r.sessionId().equals(sessionId)) {
        continue;
      }
      for (int i = 0; i < specs.size(); i++) {
        if (turn.callId(sessionId, i).equals(r.callId())) {
          boolean approve = specs.get(i).approval() == Approval.APPROVE;
          await(engine.decide(approve ? ApprovalDecision.approve(r, "tester", "ok")
              : ApprovalDecision.reject(r, "tester", "no")));
        }
      }
    }
  }

  private static void check(List<Spec> specs, Turn turn, String sessionId, TurnResult result, World world,
                            int crashedAt, java.util.Set<String> inFlightAtCrash) {
    assertThat(result.calls()).hasSize(specs.size());
    boolean writesStopped = false;
    for (int i = 0; i < specs.size(); i++) {
      Spec s = specs.get(i);
      CallResult r = result.calls().get(i);
      String callId = turn.callId(sessionId, i).value();
      String what = "call " + i + " " + s + (i == crashedAt ? " (node died in it)" : "");
      boolean write = s.effectClass() != EffectClass.READ;
      String effectId = s.effectClass() == EffectClass.IDEMPOTENT_WRITE
          ? IdempotencyKey.of(turn.callId(sessionId, i), turn.calls().get(i).arguments()).value() : callId;
      int effects = world.effects(effectId);
      assertThat(r.index()).as(what).isEqualTo(i);
      assertThat(r.callId().value()).as(what).isEqualTo(callId);
      assertThat(r.effectClass()).as(what).isEqualTo(s.effectClass());
      if (s.effectClass() == EffectClass.NON_IDEMPOTENT_WRITE) {
        assertThat(world.requests(callId)).as(what + ": sent at most once").isLessThanOrEqualTo(1);
      }
      assertThat(effects).as(what + ": effects").isLessThanOrEqualTo(1);
      if (write && writesStopped) {
        assertThat(r.skipped()).as(what + ": skipped after a bad write").isTrue();
        assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(r.error()).startsWith(CallResult.NOT_RUN_PREFIX);
        assertThat(world.requests(callId)).as(what + ": never sent").isZero();
        continue;
      }
      assertThat(r.skipped()).as(what + ": not skipped").isFalse();
      if (r.outcome() == Outcome.OUTCOME_UNKNOWN) {
        assertThat(write).as(what + ": a read is never outcome_unknown").isTrue();
        assertThat(s.behaviour() == Behaviour.UNCERTAIN || inFlightAtCrash.contains(callId))
            .as(what + ": outcome_unknown only when the request may have reached the provider").isTrue();
      }
      if (s.approval() == Approval.REJECT) {
        assertThat(r.outcome()).as(what).isEqualTo(Outcome.FAILED);
        assertThat(r.error()).as(what + ": rule 4").startsWith("the tool did not run because a person refused it")
            .doesNotContain("safe to call again");
        assertThat(r.approval().status()).isEqualTo("rejected");
        assertThat(world.requests(callId)).as(what + ": a rejected write never runs").isZero();
      } else if (s.approval() == Approval.APPROVE) {
        assertThat(r.approval().status()).as(what).isEqualTo("approved");
      }
      if (r.outcome() == Outcome.SUCCEEDED && write) {
        assertThat(effects).as(what + ": succeeded means it took effect").isEqualTo(1);
      }
      if (r.outcome() == Outcome.FAILED) {
        assertThat(write ? effects : 0).as(what + ": failed means no effect").isZero();
      }
      boolean interrupted = i == crashedAt || inFlightAtCrash.contains(callId);
      if (s.behaviour() == Behaviour.NOT_SENT && !interrupted && s.approval() != Approval.REJECT) {
        assertThat(r.outcome()).as(what).isEqualTo(Outcome.FAILED);
        assertThat(r.error()).as(what + ": rule 7").startsWith(CallResult.NOT_RUN_PREFIX);
      }
      if (s.behaviour() == Behaviour.SUCCEED && !interrupted && s.approval() != Approval.REJECT) {
        assertThat(r.outcome()).as(what).isEqualTo(Outcome.SUCCEEDED);
      }
      if (write && r.outcome() != Outcome.SUCCEEDED) {
        writesStopped = true;
      }
    }
  }
}
